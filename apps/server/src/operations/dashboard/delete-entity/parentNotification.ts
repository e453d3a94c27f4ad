import { mine } from '../../../accounts/people.ts';
import { recordSecurityEvent } from '../../../services/security-events.ts';
import { ownedNotification } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2: an own notification rule; event `notificationDeleted`.
export default deleteEntityHandler(async (id, ctx) => {
  // issue 12: only the person's own rules (accounts/people.ts `mine`)
  const rule = mine(ctx, await ownedNotification(ctx.db, ctx.parentId, id), 'Notification');
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('notifications')
      .where('id', '=', rule.id)
      .where('parent_id', '=', ctx.parentId)
      .execute();
    await recordSecurityEvent(
      { ...ctx, db: trx },
      ctx.parentId,
      'notificationDeleted',
      `trigger: ${rule.trigger}`,
    );
  });
});
