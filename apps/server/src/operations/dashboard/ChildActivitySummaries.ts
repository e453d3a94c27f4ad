import { buildDaySummaries } from '../../activity/activity.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChildComputerUsers } from '../ownership.ts';

// server-behaviour §3.6, §7.4: one child's day summaries over the last 14 local days.
export default dashboardResolver('ChildActivitySummaries', async (input, ctx) => {
  const { child, computerUserIds } = await ownedChildComputerUsers(
    ctx.db,
    ctx.parentId,
    input.childId,
  );
  const days = await buildDaySummaries(ctx.db, {
    computerUserIds,
    now: ctx.clock.now(),
    jsTimezoneOffsetMinutes: input.jsTimezoneOffsetMinutes,
  });
  return { childName: child.name, days };
});
