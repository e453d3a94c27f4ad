import { emailPerson } from '../../accounts/second-factor.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { ownedPasskey } from '../ownership.ts';

// Issue 12: removes one of the acting person's passkeys; another person's is refused like a
// missing one.
export default dashboardResolver('RemovePasskey', async (input, ctx) => {
  const passkey = await ownedPasskey(ctx.db, ctx.parentId, ctx.personId, input.id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('passkeys').where('id', '=', passkey.id).execute();
    await recordSecurityEvent({ ...ctx, db: trx }, ctx.parentId, 'passkeyRemoved', passkey.name);
  });
  await emailPerson(ctx, ctx.personId, 'passkey-removed', {
    name: passkey.name,
    settingsUrl: `${ctx.dashboardUrl}/settings`,
  });
  return { success: true };
});
