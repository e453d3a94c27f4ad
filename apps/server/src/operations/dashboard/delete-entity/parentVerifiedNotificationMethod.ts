import { isMethodDeletable } from '@keyward/domain/notifications';
import { mine } from '../../../accounts/people.ts';
import { fromDbJson } from '../../../db/values.ts';
import {
  isPushConfig,
  type StoredMethodConfig,
  toWireConfig,
} from '../../../notifications/method-config.ts';
import { badRequest, notFound } from '../../../pairql/errors.ts';
import { ownedNotificationMethod, ownedParent } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2 and the spec's deletable flag: an own verified method that no notification
// uses and that is not the email method for the account's own address.
export default deleteEntityHandler(async (id, ctx) => {
  // issue 12: only the person's own methods (accounts/people.ts `mine`)
  const method = mine(
    ctx,
    await ownedNotificationMethod(ctx.db, ctx.parentId, id),
    'NotificationMethod',
  );
  const parent = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  const rules = await ctx.db
    .selectFrom('notifications')
    .select('method_id as methodId')
    .where('parent_id', '=', ctx.parentId)
    .where('method_id', '=', method.id)
    .execute();
  const stored = fromDbJson<StoredMethodConfig>(method.config);
  // issue 23: "This device" is removed with DeletePushSubscription, never seen as a verified method
  if (isPushConfig(stored)) throw notFound('NotificationMethod');
  const config = toWireConfig(stored, ctx.services.tokens);
  if (!isMethodDeletable({ id: method.id, config }, rules, parent.email)) {
    throw rules.length > 0
      ? badRequest(
          '4e9b7d05',
          'Notification method in use',
          'This notification method is used by a notification. Delete or change that notification first.',
        )
      : badRequest(
          '9a1c6e38',
          'The account email method cannot be deleted',
          "Your account's email address can't be removed as a notification method.",
        );
  }
  // the rule check and the delete race with SaveNotification: delete only while still unused
  await ctx.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('notification_methods')
      .where('id', '=', method.id)
      .where('parent_id', '=', ctx.parentId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('notifications')
              .select('id')
              .whereRef('method_id', '=', 'notification_methods.id'),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) {
      throw badRequest(
        '4e9b7d05',
        'Notification method in use',
        'This notification method is used by a notification. Delete or change that notification first.',
      );
    }
  });
});
