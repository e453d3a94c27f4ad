import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 12: the Settings 'Sign-in security' section of the person acting.
export default dashboardResolver('GetSignInSecurity', async (_input, ctx) => {
  const [totp, codes, passkeys] = await Promise.all([
    ctx.db
      .selectFrom('totp_factors')
      .select('confirmed_at')
      .where('person_id', '=', ctx.personId)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('person_id', '=', ctx.personId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('person_id', '=', ctx.personId)
      .orderBy('created_at')
      .execute(),
  ]);
  return {
    totpEnabled: Boolean(totp?.confirmed_at),
    recoveryCodesLeft: Number(codes.n),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.created_at,
      ...(p.last_used_at ? { lastUsedAt: p.last_used_at } : {}),
    })),
  };
});
