import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { relyingParty, saveCeremony } from '../../accounts/passkeys.ts';
import { findChallenge } from '../../accounts/second-factor.ts';
import { fromDbJson } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';

// Issue 12: WebAuthn sign-in options. With the challenge Login answered: the person's own passkeys
// (the second step); without: any discoverable passkey of this site (password-less sign-in).
export default dashboardResolver('StartPasskeyLogin', async (input, ctx) => {
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `passkey-login:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );
  const rp = relyingParty(ctx);
  const challenge = input.secondFactorChallenge
    ? await findChallenge(ctx, input.secondFactorChallenge)
    : undefined;
  const allowCredentials = challenge
    ? (
        await ctx.db
          .selectFrom('passkeys')
          .select(['credential_id', 'transports'])
          .where('person_id', '=', challenge.person_id)
          .execute()
      ).map((p) => ({ id: p.credential_id, transports: fromDbJson<string[]>(p.transports) }))
    : undefined;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    ...(allowCredentials ? { allowCredentials: allowCredentials as never } : {}),
  });
  const challengeId = await saveCeremony(ctx, {
    challenge: options.challenge,
    purpose: 'login',
    parentId: challenge?.parent_id ?? null,
    personId: challenge?.person_id ?? null,
    secondFactorChallengeId: challenge?.id ?? null,
  });
  return { challengeId, options: options as unknown as Record<string, unknown> };
});
