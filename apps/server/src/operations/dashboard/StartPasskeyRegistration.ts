import { generateRegistrationOptions } from '@simplewebauthn/server';
import { relyingParty, saveCeremony } from '../../accounts/passkeys.ts';
import { personEmail } from '../../accounts/second-factor.ts';
import { fromDbJson } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 12: WebAuthn registration options for a new passkey of the person acting (a discoverable
// credential, so it can also sign in without a password). The challenge is kept server-side.
export default dashboardResolver('StartPasskeyRegistration', async (_input, ctx) => {
  const rp = relyingParty(ctx);
  const existing = await ctx.db
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('person_id', '=', ctx.personId)
    .execute();
  const email = (await personEmail(ctx, ctx.personId)) ?? ctx.personId;
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: email,
    userID: new TextEncoder().encode(ctx.personId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.credential_id,
      transports: fromDbJson<string[]>(p.transports),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await ctx.db.transaction().execute((trx) =>
    saveCeremony(
      { ...ctx, db: trx },
      {
        challenge: options.challenge,
        purpose: 'registration',
        parentId: ctx.parentId,
        personId: ctx.personId,
        secondFactorChallengeId: null,
      },
    ),
  );
  return { options: options as unknown as Record<string, unknown> };
});
