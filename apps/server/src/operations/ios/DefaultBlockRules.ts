import { appGroupIdsExcept, groupRules } from '../../ios/app-groups.ts';
import { toLegacyBlockRule } from '../../ios/wire.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: the rules of every block group the app offers, all on: what the app enforces
// from its first launch until it has chosen (and when it recovers from lost rules). Answered as
// `BlockRule.Legacy` values (ios/wire.ts).
export default iosResolver('DefaultBlockRules', async (_input, ctx) => {
  const rules = await groupRules(ctx.db, appGroupIdsExcept([]));
  return rules.map(toLegacyBlockRule);
});
