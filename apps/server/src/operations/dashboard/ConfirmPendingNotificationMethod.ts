import { timingSafeEqual } from 'node:crypto';
import type { NotificationMethodConfig } from '@keyward/contract/shared';
import { ofPerson, personColumn } from '../../accounts/people.ts';
import { exemptFromAudit } from '../../audit/unit-of-work.ts';
import { fromDbJson, toDbJson, toDbTime } from '../../db/values.ts';
import {
  configFingerprint,
  decryptSlackToken,
  type WireStoredMethodConfig,
} from '../../notifications/method-config.ts';
import { badRequest, PqlFailure, unauthorized } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import type { TokenService } from '../../services/tokens.ts';

const INCORRECT_CODE = 'Incorrect or expired code. Please request a new one.';

/** Tries per code: a typo does not end the attempt, guessing still does (issue 20). */
export const TRIES_PER_CODE = 3;
/** Longer than a code lives (60 minutes), so one code's tries are counted together. */
const TRIES_WINDOW_SECONDS = 24 * 60 * 60;
/** The answer's dashboardTag when the same code may be typed again. */
export const CODE_MAY_BE_RETRIED = 'incorrectCodeTryAgain';

// server-behaviour §3.8, wire-contract §5.2, issue 20: TRIES_PER_CODE tries per pending method,
// each counted before it is evaluated (so parallel guesses evaluate at most that many), beside the
// per-parent budget. The right code is taken by a DELETE … RETURNING, so two racing attempts cannot
// both use it; a wrong code rolls the delete back and keeps the row while tries remain (the answer
// says how many, tagged CODE_MAY_BE_RETRIED); the last wrong try spends the row. An expired row,
// an unknown id and another parent's id are one and the same 401. The delete and the new method
// commit together with the audit entry.
export default dashboardResolver('ConfirmPendingNotificationMethod', async (input, ctx) => {
  const { limit, windowSeconds } = RATE_LIMITS.confirmNotificationMethodPerParent;
  await ctx.services.rateLimit.consume(
    `confirmNotificationMethod:parent:${ctx.parentId}`,
    limit,
    windowSeconds,
  );
  const tryNumber = await ctx.services.rateLimit.hit(
    `confirmNotificationMethod:code:${ctx.parentId}:${input.id}`,
    TRIES_WINDOW_SECONDS,
  );
  const triesLeft = TRIES_PER_CODE - tryNumber;

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
      if (!pending || new Date(pending.expires_at).getTime() <= now.getTime() || triesLeft < 0) {
        throw unauthorized('b84d2f17', 'incorrectConfirmationCode', INCORRECT_CODE);
      }
      if (!sameHash(pending.code_hash, tokens.hmac(input.code))) {
        if (triesLeft === 0) {
          throw unauthorized('b84d2f17', 'incorrectConfirmationCode', INCORRECT_CODE);
        }
        throw new KeptCode(triesLeft);
      }

      const stored = fromDbJson<WireStoredMethodConfig>(pending.config);
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
    // the refusal rolled the delete back: a wrong code with tries left keeps the row, any other
    // refusal spends it all the same
    if (error instanceof KeptCode) {
      throw unauthorized(
        'b84d2f17',
        'incorrectConfirmationCode',
        `Incorrect code. Check it and try again: ${error.triesLeft === 1 ? '1 try' : `${error.triesLeft} tries`} left.`,
        { dashboardTag: CODE_MAY_BE_RETRIED },
      );
    }
    if (error instanceof PqlFailure) await spend();
    throw error;
  }
  return { success: true };
});

/** A wrong code while tries remain: the transaction rolls back and the row stays. */
class KeptCode extends Error {
  constructor(readonly triesLeft: number) {
    super('incorrect code, tries left');
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function plainConfig(
  stored: WireStoredMethodConfig,
  tokens: TokenService,
): NotificationMethodConfig {
  if (stored.case !== 'slack') return stored;
  return {
    case: 'slack',
    channelId: stored.channelId,
    channelName: stored.channelName,
    token: decryptSlackToken(stored, tokens),
  };
}
