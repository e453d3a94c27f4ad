import { checkNotificationMethodConfig } from '@keyward/domain/notifications';
import { personColumn } from '../../accounts/people.ts';
import { HOUR, addMs, toDbJson, toDbTime } from '../../db/values.ts';
import { configFingerprint, toStoredConfig } from '../../notifications/method-config.ts';
import { badRequest, serverError, unauthorized } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { newSixDigitCode, newToken } from '../../services/tokens.ts';

export const PENDING_METHOD_LIFETIME_MS = HOUR;

// server-behaviour §3.8: a method the parent wants to be notified through is first stored as pending
// with a 6-digit code (HMAC only) sent through the method itself; ConfirmPendingNotificationMethod
// turns it into a verified method. Nothing enters notification_methods here.
export default dashboardResolver('CreatePendingNotificationMethod', async (input, ctx) => {
  const checked = checkNotificationMethodConfig(input);
  if (!checked.ok)
    throw badRequest(
      '5d0c8e21',
      `Invalid notification method: ${checked.message}`,
      checked.message,
    );
  const config = checked.config;
  const { tokens } = ctx.services;

  const fingerprint = configFingerprint(config, tokens);
  const existing = await ctx.db
    .selectFrom('notification_methods')
    .select(['id', 'person_id'])
    .where('parent_id', '=', ctx.parentId)
    .where('config_fingerprint', '=', fingerprint)
    .executeTakeFirst();
  // issue 12: one family holds a method once, whichever parent verified it
  if (existing && existing.person_id !== personColumn(ctx)) {
    throw badRequest(
      'a3f17c59',
      'Notification method already verified by another parent of the family',
      'Another parent of your family already uses this notification method.',
    );
  }
  if (existing) {
    throw badRequest(
      'a3f17c58',
      'Notification method already verified',
      'You already have this notification method.',
    );
  }

  const { limit, windowSeconds } = RATE_LIMITS.pendingNotificationMethodPerParent;
  await ctx.services.rateLimit.consume(
    `notificationMethod:parent:${ctx.parentId}`,
    limit,
    windowSeconds,
  );

  // The code is sent first: a code that never arrived leaves no pending row behind, and the row
  // is stored with its audit entry in one transaction (a row that cannot be stored makes the code
  // a dead one, which the parent is told of by the error).
  const now = ctx.clock.now();
  const methodId = newToken();
  const code = newSixDigitCode();
  try {
    switch (config.case) {
      case 'email':
        await ctx.services.email.send('verify-notification-email', config.email, { code });
        break;
      case 'text':
        await ctx.services.sms.send(config.phoneNumber, `Your verification code is ${code}`);
        break;
      case 'slack':
        await ctx.services.slack.post({
          token: config.token,
          channelId: config.channelId,
          channelName: config.channelName,
          text: `Your verification code is \`${code}\``,
        });
        break;
    }
  } catch (error) {
    ctx.log.error(
      { err: error, method: config.case },
      `sending the verification code failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (config.case === 'slack') {
      throw unauthorized(
        'df619205',
        `Slack verification message failed: ${slackErrorCode(error)}`,
        "We couldn't post to that Slack channel. Check the bot token and the channel ID, and make sure the bot has been added to the channel.",
        { dashboardTag: 'slackVerificationFailed' },
      );
    }
    throw serverError(
      config.case === 'email' ? '7c2e9d40' : 'e81b5f3a',
      `Sending the ${config.case} verification code failed`,
      config.case === 'email'
        ? "We couldn't send the verification email. Please try again in a few minutes."
        : "We couldn't send the verification text message. Please check the number and try again in a few minutes.",
    );
  }

  // the transaction answers the output: the audit entry names the pending method
  return ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('pending_notification_methods')
      .where('parent_id', '=', ctx.parentId)
      .where('expires_at', '<=', toDbTime(now))
      .execute();
    await trx
      .insertInto('pending_notification_methods')
      .values({
        id: methodId,
        parent_id: ctx.parentId,
        // issue 12: the method will belong to the person adding it
        person_id: personColumn(ctx),
        config: toDbJson(toStoredConfig(config, tokens)),
        code_hash: tokens.hmac(code),
        expires_at: toDbTime(addMs(now, PENDING_METHOD_LIFETIME_MS)),
        created_at: toDbTime(now),
      })
      .execute();
    return { methodId };
  });
});

function slackErrorCode(error: unknown): string {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  if (typeof data?.error === 'string') return data.error;
  return error instanceof Error ? error.message : 'unknown error';
}
