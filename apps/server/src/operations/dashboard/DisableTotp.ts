import { exemptFromAudit } from '../../audit/unit-of-work.ts';
import {
  acceptTotpCode,
  codeAlreadyUsed,
  emailPerson,
  reserveCodeAttempt,
  spendRecoveryCode,
  wrongCode,
} from '../../accounts/second-factor.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// Issue 12: turning the authenticator off needs a current code from it (or a recovery code, for a
// lost phone); its recovery codes go with it, unless a passkey still asks for the second step
// (they are that passkey's way back too).
export default dashboardResolver('DisableTotp', async (input, ctx) => {
  const factor = await ctx.db
    .selectFrom('totp_factors')
    .select('confirmed_at')
    .where('person_id', '=', ctx.personId)
    .executeTakeFirst();
  if (!factor?.confirmed_at) {
    throw badRequest(
      '2fa6c0d4',
      'TOTP not enabled',
      'No authenticator app is set up for your sign-in.',
    );
  }
  const attempt = await reserveCodeAttempt(ctx, ctx.personId);
  // a code accepted is spent whatever follows (replays lose): not part of the audited change
  const spending = { ...ctx, db: exemptFromAudit(ctx.db) };
  let outcome = await acceptTotpCode(spending, ctx.personId, input.code, { confirmedOnly: true });
  if (outcome === 'wrong') outcome = await spendRecoveryCode(spending, ctx.personId, input.code);
  if (outcome === 'wrong') throw wrongCode();
  await attempt.refund();
  if (outcome === 'alreadyUsed') throw codeAlreadyUsed();
  await ctx.db.transaction().execute(async (trx) => {
    const passkey = await trx
      .selectFrom('passkeys')
      .select('id')
      .where('person_id', '=', ctx.personId)
      .executeTakeFirst();
    if (!passkey) {
      await trx.deleteFrom('recovery_codes').where('person_id', '=', ctx.personId).execute();
    }
    await trx.deleteFrom('totp_factors').where('person_id', '=', ctx.personId).execute();
    await recordSecurityEvent({ ...ctx, db: trx }, ctx.parentId, 'totpDisabled');
  });
  await emailPerson(ctx, ctx.personId, 'totp-disabled', {
    settingsUrl: `${ctx.dashboardUrl}/settings`,
  });
  return { success: true };
});
