import { unconnectedAppRules } from '../../ios/app-groups.ts';
import { toLegacyBlockRule } from '../../ios/wire.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: an iPhone or iPad without a parent account asks for the rules of the block
// groups it has on: every group of the app but `disabledGroups` (apps before 1.5.0 also without the
// Spotify group, which they never offered), plus the own rules of the connected device with this
// vendor id, if any. Answered as `BlockRule.Legacy` values (ios/wire.ts).
export default iosResolver('BlockRules_v2', async (input, ctx) => {
  const rules = await unconnectedAppRules(ctx.db, {
    disabledGroups: input.disabledGroups,
    appVersion: input.version,
    vendorId: input.vendorId,
  });
  return rules.map(toLegacyBlockRule);
});
