import { lookupOneTimeToken, markTokenUsed } from '../../accounts/one-time-tokens.ts';
import { createSession } from '../../accounts/sessions.ts';
import { TRIAL_DAYS } from '../../accounts/subscription-status.ts';
import { sendVerificationEmail } from '../../accounts/verification-email.ts';
import { addMs, DAY, toDbJson, toDbTime } from '../../db/values.ts';
import { configFingerprint, toStoredConfig } from '../../notifications/method-config.ts';
import type { PublicContext } from '../../pairql/context.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { newToken } from '../../services/tokens.ts';

const ALREADY_VERIFIED = 'Your email address has already been verified.';

// server-behaviour §2.5
export default dashboardResolver('VerifySignupEmail', async (input, ctx) => {
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `verify:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );

  const lookup = await lookupOneTimeToken(ctx, input.token, 'emailVerification');
  if (lookup.state === 'unknown') throw notFound('Token', 'Verification token not found');

  const parent = await ctx.db
    .selectFrom('parents')
    .select(['id', 'email', 'subscription_status'])
    .where('id', '=', lookup.row.parent_id)
    .executeTakeFirstOrThrow();
  const isPending = parent.subscription_status === 'pendingEmailVerification';

  const isUsable =
    lookup.state === 'valid' && (await redeem(ctx, lookup.row.id, parent, isPending));
  if (!isUsable) {
    const isExpired = lookup.state === 'expired';
    if (isPending) {
      await sendVerificationEmail(ctx, parent);
      throw isExpired
        ? badRequest(
            '84a6c609',
            'Verification link expired; a new email was sent',
            'The link you clicked has expired, but we sent a new verification email. Please check your inbox.',
          )
        : badRequest(
            '6257bfb9',
            'Verification token already used; a new email was sent',
            "Sorry, we couldn't verify you this time, but we sent a new verification email. Please check your inbox.",
          );
    }
    throw badRequest(
      isExpired ? 'beb1b493' : 'f2b70e49',
      isExpired
        ? 'Verification link expired; email already verified'
        : 'Verification token already used; email already verified',
      ALREADY_VERIFIED,
      { dashboardTag: 'emailAlreadyVerified' },
    );
  }

  const token = await createSession(ctx, parent.id);
  return { token, adminId: parent.id };
});

/**
 * Spends the token and, for a pending parent, starts the trial, in one transaction: a failure
 * leaves the token usable. False if another request spent the token first.
 */
function redeem(
  ctx: PublicContext,
  tokenId: string,
  parent: { id: string; email: string },
  isPending: boolean,
): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await markTokenUsed(tx, tokenId))) return false;
    if (isPending) await startTrial(tx, parent);
    return true;
  });
}

/** Pending → trialing for 18 days, with a verified email method for the account address. */
async function startTrial(ctx: PublicContext, parent: { id: string; email: string }) {
  const now = ctx.clock.now();
  const config = { case: 'email' as const, email: parent.email };
  await ctx.db
    .updateTable('parents')
    .set({
      subscription_status: 'trialing',
      subscription_status_expiration: toDbTime(addMs(now, TRIAL_DAYS * DAY)),
      updated_at: toDbTime(now),
    })
    .where('id', '=', parent.id)
    .where('subscription_status', '=', 'pendingEmailVerification')
    .execute();
  await ctx.db
    .insertInto('notification_methods')
    .values({
      id: newToken(),
      parent_id: parent.id,
      config: toDbJson(toStoredConfig(config, ctx.services.tokens)),
      config_fingerprint: configFingerprint(config, ctx.services.tokens),
      created_at: toDbTime(now),
    })
    .onConflict((oc) => oc.columns(['parent_id', 'config_fingerprint']).doNothing())
    .execute();
}
