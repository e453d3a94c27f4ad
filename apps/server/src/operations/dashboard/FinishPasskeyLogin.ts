import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { passkeyRefused, relyingParty, spendCeremony } from '../../accounts/passkeys.ts';
import { completeChallenge } from '../../accounts/second-factor.ts';
import { createSession } from '../../accounts/sessions.ts';
import { fromDbInt, fromDbJson, toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// Issue 12: verifies a passkey assertion. As a second step it completes the Login challenge (the
// passkey must be that person's); password-less, it opens a session for the passkey's person.
export default dashboardResolver('FinishPasskeyLogin', async (input, ctx) => {
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `passkey-login:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );
  const ceremony = await spendCeremony(ctx, input.challengeId, 'login');
  const response = input.response as unknown as AuthenticationResponseJSON;
  if (typeof response.id !== 'string') throw passkeyRefused();
  const passkey = await ctx.db
    .selectFrom('passkeys')
    .selectAll()
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  if (!passkey) throw passkeyRefused();
  if (ceremony.person_id && ceremony.person_id !== passkey.person_id) throw passkeyRefused();

  const rp = relyingParty(ctx);
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: rp.expectedOrigins,
      expectedRPID: rp.expectedRpIds,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: fromDbInt(passkey.counter),
        transports: fromDbJson<string[]>(passkey.transports) as never,
      },
      requireUserVerification: false,
    });
  } catch (error) {
    ctx.log.info({ err: error }, 'passkey assertion not verified');
    throw passkeyRefused();
  }
  if (!verification.verified) throw passkeyRefused();
  await ctx.db
    .updateTable('passkeys')
    .set({
      counter: verification.authenticationInfo.newCounter,
      last_used_at: toDbTime(ctx.clock.now()),
    })
    .where('id', '=', passkey.id)
    .execute();

  if (ceremony.second_factor_challenge_id) {
    const challenge = await ctx.db
      .selectFrom('second_factor_challenges')
      .select(['id', 'parent_id', 'person_id', 'first_step', 'expires_at', 'used_at'])
      .where('id', '=', ceremony.second_factor_challenge_id)
      .executeTakeFirst();
    if (!challenge || challenge.used_at || challenge.expires_at <= toDbTime(ctx.clock.now())) {
      throw passkeyRefused();
    }
    return completeChallenge(ctx, challenge, 'a passkey');
  }
  const token = await createSession(ctx, passkey.parent_id, passkey.person_id);
  await recordSecurityEvent(ctx, passkey.parent_id, 'login', 'using a passkey');
  return { adminId: passkey.parent_id, token };
});
