import { buildDaySummaries } from '../../activity/activity.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChildActivitySources } from '../ownership.ts';

// server-behaviour §3.6, §7.4: one child's day summaries over the last 14 local days, from its Macs
// and its iOS devices.
export default dashboardResolver('ChildActivitySummaries', async (input, ctx) => {
  const { child, sources } = await ownedChildActivitySources(ctx.db, ctx.parentId, input.childId);
  const days = await buildDaySummaries(ctx.db, {
    sources,
    now: ctx.clock.now(),
    jsTimezoneOffsetMinutes: input.jsTimezoneOffsetMinutes,
  });
  return { childName: child.name, days };
});
