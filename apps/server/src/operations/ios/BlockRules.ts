import { appGroupIdsExcept, groupRules } from '../../ios/app-groups.ts';
import { toLegacyBlockRule } from '../../ios/wire.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5, deprecated (apps 1.0 – 1.1, which had no block groups): the same default
// rules as DefaultBlockRules, as `BlockRule.Legacy` values.
export default iosResolver('BlockRules', async (_input, ctx) => {
  ctx.log.info({ op: 'BlockRules' }, 'deprecated iOS operation called');
  const rules = await groupRules(ctx.db, appGroupIdsExcept([]));
  return rules.map(toLegacyBlockRule);
});
