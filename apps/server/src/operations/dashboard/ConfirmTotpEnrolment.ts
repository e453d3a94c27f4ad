import { exemptFromAudit } from '../../audit/unit-of-work.ts';
import {
  acceptTotpCode,
  codeAlreadyUsed,
  emailPerson,
  replaceRecoveryCodes,
  reserveCodeAttempt,
  wrongCode,
} from '../../accounts/second-factor.ts';
import { endOtherSessions } from '../../accounts/sessions.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// Issue 12: the first code from the app turns the authenticator on and returns the 10 recovery
// codes, shown once (only their HMACs are kept). As the person's first second factor, it ends
// their other sessions (issue 19).
export default dashboardResolver('ConfirmTotpEnrolment', async (input, ctx) => {
  const factor = await ctx.db
    .selectFrom('totp_factors')
    .select('confirmed_at')
    .where('person_id', '=', ctx.personId)
    .executeTakeFirst();
  if (!factor) {
    throw badRequest(
      '2fa5b1c2',
      'No TOTP enrolment started',
      'Start setting up the authenticator app again: scan the new QR code, then enter its code.',
    );
  }
  if (factor.confirmed_at) {
    throw badRequest(
      '2fa3e5a0',
      'TOTP already enabled',
      'An authenticator app is already set up. Turn it off first to set up another one.',
    );
  }
  const attempt = await reserveCodeAttempt(ctx, ctx.personId);
  // a code accepted is spent whatever follows (replays lose): not part of the audited change
  const spending = { ...ctx, db: exemptFromAudit(ctx.db) };
  const outcome = await acceptTotpCode(spending, ctx.personId, input.code, {
    confirmedOnly: false,
  });
  if (outcome === 'wrong') throw wrongCode();
  // a right code, accepted or already used (its double submit won the race): not a wrong code
  await attempt.refund();
  if (outcome === 'alreadyUsed') throw codeAlreadyUsed();
  const recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
    const confirmed = await trx
      .updateTable('totp_factors')
      .set({ confirmed_at: toDbTime(ctx.clock.now()) })
      .where('person_id', '=', ctx.personId)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    if (Number(confirmed.numUpdatedRows) !== 1) {
      throw badRequest(
        '2fa3e5a0',
        'TOTP already enabled',
        'An authenticator app is already set up. Turn it off first to set up another one.',
      );
    }
    const inTransaction = { ...ctx, db: trx };
    const passkey = await trx
      .selectFrom('passkeys')
      .select('id')
      .where('person_id', '=', ctx.personId)
      .executeTakeFirst();
    // the person's first second factor: sessions opened with the password alone end (issue 19)
    if (!passkey) await endOtherSessions(inTransaction, ctx);
    const codes = await replaceRecoveryCodes(inTransaction, ctx);
    await recordSecurityEvent(inTransaction, ctx.parentId, 'totpEnabled');
    return codes;
  });
  await emailPerson(ctx, ctx.personId, 'totp-enabled', {
    settingsUrl: `${ctx.dashboardUrl}/settings`,
  });
  return { recoveryCodes };
});
