import { summariesOf, toKey, unexpiredKeys } from '../../keychains/keychain-rows.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedKeychain } from '../ownership.ts';

// server-behaviour §3.4: one own keychain (the editor) with its unexpired keys.
export default dashboardResolver('GetAdminKeychain', async (id, ctx) => {
  const now = ctx.clock.now();
  const keychain = await ownedKeychain(ctx.db, ctx.parentId, id);
  const [[summary], keys] = await Promise.all([
    summariesOf(ctx.db, now, [keychain]),
    unexpiredKeys(ctx.db, now, [keychain.id]),
  ]);
  return { summary: summary!, keys: keys.map(toKey) };
});
