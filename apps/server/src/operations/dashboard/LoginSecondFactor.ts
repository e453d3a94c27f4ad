import {
  acceptTotpCode,
  codeAlreadyUsed,
  completeChallenge,
  emailPerson,
  findChallenge,
  reserveCodeAttempt,
  spendRecoveryCode,
  wrongCode,
} from '../../accounts/second-factor.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// Issue 12: the second step of signing in: the challenge from Login / LoginMagicLink and a code
// from the authenticator app or a recovery code. Wrong codes spend a budget per challenge and per
// person, reserved before the code is checked.
export default dashboardResolver('LoginSecondFactor', async (input, ctx) => {
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `second-factor:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );
  const challenge = await findChallenge(ctx, input.challenge);
  const attempt = await reserveCodeAttempt(ctx, challenge.person_id, challenge.id);

  let outcome = await acceptTotpCode(ctx, challenge.person_id, input.code, {
    confirmedOnly: true,
  });
  if (outcome === 'accepted') {
    await attempt.refund();
    return completeChallenge(ctx, challenge, 'an authenticator code');
  }
  if (outcome === 'wrong') outcome = await spendRecoveryCode(ctx, challenge.person_id, input.code);
  if (outcome === 'alreadyUsed') {
    // a right code whose twin was accepted first: not a wrong code (issue 19)
    await attempt.refund();
    await recordSecurityEvent(
      ctx,
      challenge.parent_id,
      'loginFailed',
      'a second-factor code already used',
    );
    throw codeAlreadyUsed();
  }
  if (outcome === 'accepted') {
    await attempt.refund();
    const session = await completeChallenge(ctx, challenge, 'a recovery code');
    const left = await ctx.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('person_id', '=', challenge.person_id)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    await recordSecurityEvent(ctx, challenge.parent_id, 'recoveryCodeUsed');
    await emailPerson(ctx, challenge.person_id, 'recovery-code-used', {
      codesLeft: Number(left.n),
      settingsUrl: `${ctx.dashboardUrl}/settings`,
    });
    return session;
  }
  await recordSecurityEvent(ctx, challenge.parent_id, 'loginFailed', 'wrong second-factor code');
  throw wrongCode();
});
