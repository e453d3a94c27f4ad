import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { verifyRegistrationResponse } from '@simplewebauthn/server';
import { passkeyRefused, relyingParty } from '../../accounts/passkeys.ts';
import { emailPerson, recoveryCodesIfNone } from '../../accounts/second-factor.ts';
import { endOtherSessions } from '../../accounts/sessions.ts';
import { toDbJson, toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { newToken } from '../../services/tokens.ts';

// Issue 12: verifies the browser's registration response against the person's latest unexpired
// registration challenge and stores the passkey (its public key, never anything secret). A person
// without recovery codes gets 10 with it (shown once): a passkey turns on the second sign-in step,
// and without codes a lost passkey would lock its person out.
export default dashboardResolver('FinishPasskeyRegistration', async (input, ctx) => {
  const rp = relyingParty(ctx);
  const now = toDbTime(ctx.clock.now());
  const ceremonies = await ctx.db
    .selectFrom('webauthn_challenges')
    .select(['id', 'challenge'])
    .where('purpose', '=', 'registration')
    .where('person_id', '=', ctx.personId)
    .where('parent_id', '=', ctx.parentId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>> | undefined;
  let ceremonyId: string | undefined;
  for (const ceremony of ceremonies) {
    try {
      const result = await verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: rp.expectedOrigins,
        expectedRPID: rp.expectedRpIds,
        requireUserVerification: false,
      });
      if (result.verified) {
        verified = result;
        ceremonyId = ceremony.id;
        break;
      }
    } catch (error) {
      ctx.log.info({ err: error }, 'passkey registration not verified');
    }
  }
  if (!verified?.registrationInfo || !ceremonyId) throw passkeyRefused();
  const { credential } = verified.registrationInfo;
  const passkeyId = newToken();
  const { name, recoveryCodes } = await ctx.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('webauthn_challenges')
      .set({ used_at: now })
      .where('id', '=', ceremonyId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw passkeyRefused();
    const count = await trx
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('person_id', '=', ctx.personId)
      .executeTakeFirstOrThrow();
    const name = input.name?.trim() || `Passkey ${Number(count.n) + 1}`;
    const totp = await trx
      .selectFrom('totp_factors')
      .select('person_id')
      .where('person_id', '=', ctx.personId)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst();
    // the person's first second factor: sessions opened with the password alone end (issue 19)
    if (Number(count.n) === 0 && !totp) await endOtherSessions({ ...ctx, db: trx }, ctx);
    await trx
      .insertInto('passkeys')
      .values({
        id: passkeyId,
        parent_id: ctx.parentId,
        person_id: ctx.personId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: toDbJson(credential.transports ?? []),
        name,
        created_at: now,
        last_used_at: null,
      })
      .execute();
    const inTransaction = { ...ctx, db: trx };
    await recordSecurityEvent(inTransaction, ctx.parentId, 'passkeyAdded', name);
    return { name, recoveryCodes: await recoveryCodesIfNone(inTransaction, ctx) };
  });
  await emailPerson(ctx, ctx.personId, 'passkey-added', {
    name,
    settingsUrl: `${ctx.dashboardUrl}/settings`,
  });
  return recoveryCodes ? { passkeyId, recoveryCodes } : { passkeyId };
});
