import { personColumn } from '../../accounts/people.ts';
import { toDbJson, toDbTime } from '../../db/values.ts';
import { pushFingerprint, type StoredPushConfig } from '../../notifications/method-config.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';
import { isAcceptedEndpoint } from '../../services/web-push.ts';

// Issue 23: turns on "This device" for the person signed in: the browser's push subscription
// becomes a notification method (no verification code: the browser's permission prompt is the
// consent) with one rule per chosen trigger. The same browser saved again (same endpoint) by the
// same person is the same method: its keys, name and rules are replaced, and its id is answered;
// another person of the family is refused (issue 31).
/** Each method multiplies every notification: a bound on what one family can make the server send. */
const MAX_METHODS_PER_FAMILY = 50;

export default dashboardResolver('SavePushSubscription', async (input, ctx) => {
  if (!isAcceptedEndpoint(input.endpoint, ctx.config.mode)) {
    throw badRequest(
      '3c8e5a21',
      `Push endpoint is not an https URL: ${input.endpoint.slice(0, 100)}`,
      "This browser's notifications could not be turned on. Try again, or use another browser.",
    );
  }
  const p256dh = Buffer.from(input.keys.p256dh, 'base64url');
  const auth = Buffer.from(input.keys.auth, 'base64url');
  if (p256dh.length !== 65 || p256dh[0] !== 0x04 || auth.length !== 16) {
    throw badRequest(
      '3c8e5a22',
      'Push subscription keys are not a P-256 public key and a 16-byte secret',
      "This browser's notifications could not be turned on. Try again, or use another browser.",
    );
  }
  const { tokens } = ctx.services;
  const config: StoredPushConfig = {
    case: 'push',
    label: input.label?.trim() || 'This device',
    encryptedSubscription: tokens.encrypt(
      JSON.stringify({ endpoint: input.endpoint, keys: input.keys }),
    ),
  };
  const fingerprint = pushFingerprint(input.endpoint, tokens);
  const triggers = [...new Set(input.triggers)];
  const now = toDbTime(ctx.clock.now());

  return ctx.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('notification_methods')
      .select(['id', 'person_id'])
      .where('parent_id', '=', ctx.parentId)
      .where('config_fingerprint', '=', fingerprint)
      .executeTakeFirst();
    let id = input.id.toLowerCase();
    if (existing) {
      // Issue 31: only the person whose method it is saves it again. Knowing another parent's
      // endpoint (it is no secret within a family) does not make it yours: saved with your keys,
      // their notifications would go to you, encrypted so that their browser cannot read them.
      if ((existing.person_id ?? null) !== personColumn(ctx)) {
        throw badRequest(
          '3c8e5a25',
          'Push endpoint belongs to another person of the family',
          "This browser's notifications are turned on for another parent of your family. They can turn them off in Settings, then you can turn them on here.",
        );
      }
      // one browser, one method: saved again, its keys, name and rules are replaced
      id = existing.id;
      await trx
        .updateTable('notification_methods')
        .set({ config: toDbJson(config), person_id: personColumn(ctx) })
        .where('id', '=', id)
        .execute();
      await trx.deleteFrom('notifications').where('method_id', '=', id).execute();
    } else {
      const { count } = await trx
        .selectFrom('notification_methods')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('parent_id', '=', ctx.parentId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_METHODS_PER_FAMILY) {
        throw badRequest(
          '3c8e5a24',
          `Family has ${count} notification methods`,
          'This family has as many notification methods as it can have. Remove one you no longer use, then try again.',
        );
      }
      const inserted = await trx
        .insertInto('notification_methods')
        .values({
          id,
          parent_id: ctx.parentId,
          person_id: personColumn(ctx),
          config: toDbJson(config),
          config_fingerprint: fingerprint,
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
        throw badRequest(
          '3c8e5a23',
          `Notification method id ${id} already exists`,
          "This browser's notifications could not be turned on. Reload the page and try again.",
        );
      }
    }
    for (const trigger of triggers) {
      await trx
        .insertInto('notifications')
        .values({
          id: newToken(),
          parent_id: ctx.parentId,
          person_id: personColumn(ctx),
          method_id: id,
          trigger,
          created_at: now,
        })
        .execute();
    }
    return { id };
  });
});
