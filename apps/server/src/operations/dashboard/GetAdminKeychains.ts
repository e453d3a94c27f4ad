import {
  byName,
  groupBy,
  summariesOf,
  toKey,
  unexpiredKeys,
} from '../../keychains/keychain-rows.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.4: every own keychain with its summary, the own children assigned to it and
// its unexpired keys, plus all own children. A fixed number of queries, whatever the counts.
export default dashboardResolver('GetAdminKeychains', async (_input, ctx) => {
  const now = ctx.clock.now();
  const keychainRows = await ctx.db
    .selectFrom('keychains')
    .selectAll()
    .where('parent_id', '=', ctx.parentId)
    .execute();
  keychainRows.sort(byName);
  const keychainIds = keychainRows.map((row) => row.id);

  const [summaries, keyRows, children, assignments] = await Promise.all([
    summariesOf(ctx.db, now, keychainRows),
    unexpiredKeys(ctx.db, now, keychainIds),
    ctx.db
      .selectFrom('children')
      .select(['id', 'name'])
      .where('parent_id', '=', ctx.parentId)
      .execute(),
    ctx.db
      .selectFrom('child_keychains as ck')
      .innerJoin('children as c', 'c.id', 'ck.child_id')
      .select(['ck.keychain_id', 'ck.child_id'])
      .where('c.parent_id', '=', ctx.parentId)
      .execute(),
  ]);

  children.sort(byName);
  const childOrder = new Map(children.map((child, index) => [child.id, index]));
  assignments.sort((a, b) => childOrder.get(a.child_id)! - childOrder.get(b.child_id)!);
  const keysByKeychain = groupBy(keyRows, (row) => row.keychain_id);
  const childrenByKeychain = groupBy(assignments, (row) => row.keychain_id);
  return {
    keychains: summaries.map((summary) => ({
      summary,
      children: (childrenByKeychain.get(summary.id) ?? []).map((row) => row.child_id),
      keys: (keysByKeychain.get(summary.id) ?? []).map(toKey),
    })),
    children: children.map((child) => ({ id: child.id, name: child.name })),
  };
});
