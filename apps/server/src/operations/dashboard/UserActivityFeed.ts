import { buildActivityFeed, parseActivityRange } from '../../activity/activity.ts';
import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChildActivitySources } from '../ownership.ts';

// server-behaviour §3.6: one child's unreviewed items in `start < createdAt ≤ end`, coalesced, from
// its Macs and its iOS devices.
export default dashboardResolver('UserActivityFeed', async (input, ctx) => {
  const range = parseActivityRange(input.range);
  const { child, sources } = await ownedChildActivitySources(ctx.db, ctx.parentId, input.userId);
  return buildActivityFeed(ctx.db, ctx.services.storage, {
    userName: child.name,
    showSuspensionActivity: fromDbBool(child.show_suspension_activity),
    sources,
    start: range.start,
    end: range.end,
  });
});
