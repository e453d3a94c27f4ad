import { ownedKey } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2: a key of an own keychain, hard-deleted (expired ones too: removing a key
// that no longer applies is harmless). The keychain's holders then check in again.
export default deleteEntityHandler(async (id, ctx) => {
  const key = await ownedKey(ctx.db, ctx.parentId, id);
  await ctx.db
    .transaction()
    .execute((trx) => trx.deleteFrom('keys').where('id', '=', key.id).execute());
  await ctx.services.push.toKeychainHolders(key.keychain_id, { case: 'userUpdated' });
});
