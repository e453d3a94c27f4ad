import { newTotpSecret, otpauthUrl, personEmail } from '../../accounts/second-factor.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 12: a new authenticator secret for the person acting (not yet on: ConfirmTotpEnrolment
// turns it on with a first code). Starting again replaces an unconfirmed secret.
export default dashboardResolver('StartTotpEnrolment', async (_input, ctx) => {
  const existing = await ctx.db
    .selectFrom('totp_factors')
    .select('confirmed_at')
    .where('person_id', '=', ctx.personId)
    .executeTakeFirst();
  if (existing?.confirmed_at) {
    throw badRequest(
      '2fa3e5a0',
      'TOTP already enabled',
      'An authenticator app is already set up. Turn it off first to set up another one.',
    );
  }
  const secret = newTotpSecret();
  const now = toDbTime(ctx.clock.now());
  const secret_encrypted = ctx.services.tokens.encrypt(secret);
  await ctx.db.transaction().execute((trx) =>
    trx
      .insertInto('totp_factors')
      .values({
        person_id: ctx.personId,
        parent_id: ctx.parentId,
        secret_encrypted,
        confirmed_at: null,
        last_time_step: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('person_id')
          .doUpdateSet({ secret_encrypted, last_time_step: null, updated_at: now })
          .where('totp_factors.confirmed_at', 'is', null),
      )
      .execute(),
  );
  const account = (await personEmail(ctx, ctx.personId)) ?? ctx.config.appName;
  return { secret, otpauthUrl: otpauthUrl(ctx.config.appName, account, secret) };
});
