import { timingSafeEqual } from 'node:crypto';
import type { NotificationMethodConfig } from '@keyward/contract/shared';
import { ofPerson, personColumn } from '../../accounts/people.ts';
import { exemptFromAudit } from '../../audit/unit-of-work.ts';
import { fromDbJson, toDbJson, toDbTime } from '../../db/values.ts';
import {
  configFingerprint,
  decryptSlackToken,
  type StoredMethodConfig,
} from '../../notifications/method-config.ts';
import { badRequest, PqlFailure, unauthorized } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../services/rate-limit.ts';
import type { TokenService } from '../../services/tokens.ts';

const INCORRECT_CODE = 'Incorrect or expired code. Please request a new one.';

// server-behaviour §3.8, wire-contract §5.2: one try per pending method. The row is deleted by the
// attempt itself (a DELETE … RETURNING, so two racing attempts cannot both read it); a wrong code,
// an expired row, an unknown id and another parent's id are one and the same 401. The delete and
// the new method commit together with the audit entry; a wrong attempt still spends the row.
export default dashboardResolver('ConfirmPendingNotificationMethod', async (input, ctx) => {
  const { limit, windowSeconds } = RATE_LIMITS.confirmNotificationMethodPerParent;
  await ctx.services.rateLimit.consume(
    `confirmNotificationMethod:parent:${ctx.parentId}`,
    limit,
    windowSeconds,
  );

  const now = ctx.clock.now();
  const { tokens } = ctx.services;
  const spend = () =>
    exemptFromAudit(ctx.db)
      .deleteFrom('pending_notification_methods')
      .where('id', '=', input.id)
      .where('parent_id', '=', ctx.parentId)
      .where(ofPerson(ctx))
      .execute();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const pending = await trx
        .deleteFrom('pending_notification_methods')
        .where('id', '=', input.id)
        .where('parent_id', '=', ctx.parentId)
        // issue 12: only the person who started it can confirm it
        .where(ofPerson(ctx))
        .returning(['id', 'config', 'code_hash', 'expires_at'])
        .executeTakeFirst();
      if (
        !pending ||
        new Date(pending.expires_at).getTime() <= now.getTime() ||
        !sameHash(pending.code_hash, tokens.hmac(input.code))
      ) {
        throw unauthorized('b84d2f17', 'incorrectConfirmationCode', INCORRECT_CODE);
      }

      const stored = fromDbJson<StoredMethodConfig>(pending.config);
      const inserted = await trx
        .insertInto('notification_methods')
        .values({
          id: pending.id,
          parent_id: ctx.parentId,
          person_id: personColumn(ctx),
          config: toDbJson(stored),
          config_fingerprint: configFingerprint(plainConfig(stored, tokens), tokens),
          created_at: toDbTime(now),
        })
        .onConflict((oc) => oc.columns(['parent_id', 'config_fingerprint']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
        // verified meanwhile through another pending row
        throw badRequest(
          '0e6a4b93',
          'Notification method already verified',
          'You already have this notification method.',
        );
      }
    });
  } catch (error) {
    // the refusal rolled the delete back: the attempt spends the row all the same
    if (error instanceof PqlFailure) await spend();
    throw error;
  }
  return { success: true };
});

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function plainConfig(stored: StoredMethodConfig, tokens: TokenService): NotificationMethodConfig {
  if (stored.case !== 'slack') return stored;
  return {
    case: 'slack',
    channelId: stored.channelId,
    channelName: stored.channelName,
    token: decryptSlackToken(stored, tokens),
  };
}
