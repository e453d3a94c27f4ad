import { toDbBool } from '../../db/values.ts';
import { byName, summariesOf } from '../../keychains/keychain-rows.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.4: own keychains, and the public keychains of other parents (the catalogue).
export default dashboardResolver('GetSelectableKeychains', async (_input, ctx) => {
  const rows = await ctx.db
    .selectFrom('keychains')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('parent_id', '=', ctx.parentId),
        eb.and([eb('is_public', '=', toDbBool(true)), eb('parent_id', '!=', ctx.parentId)]),
      ]),
    )
    .execute();
  rows.sort(byName);
  const summaries = await summariesOf(ctx.db, ctx.clock.now(), rows);
  return {
    own: summaries.filter((summary) => summary.parentId === ctx.parentId),
    public: summaries.filter((summary) => summary.parentId !== ctx.parentId),
  };
});
