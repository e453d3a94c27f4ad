import { ownedKeychain } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2 and §1.6: an own keychain; its keys and every assignment go with it.
// Push targets are resolved from the assignments, so the holders are told BEFORE the delete.
export default deleteEntityHandler(async (id, ctx) => {
  const keychain = await ownedKeychain(ctx.db, ctx.parentId, id);
  await ctx.services.push.toKeychainHolders(keychain.id, { case: 'userUpdated' });
  await ctx.db
    .transaction()
    .execute((trx) =>
      trx
        .deleteFrom('keychains')
        .where('id', '=', keychain.id)
        .where('parent_id', '=', ctx.parentId)
        .execute(),
    );
});
