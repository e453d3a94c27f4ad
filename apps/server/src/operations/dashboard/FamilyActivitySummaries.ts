import { buildDaySummaries } from '../../activity/activity.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputerUsersByChild } from '../ownership.ts';

// server-behaviour §3.6, §7.4: day summaries over all the parent's Macs (computer users).
export default dashboardResolver('FamilyActivitySummaries', async (input, ctx) => {
  const computerUsers = await ownedComputerUsersByChild(ctx.db, ctx.parentId);
  return buildDaySummaries(ctx.db, {
    computerUserIds: computerUsers.map((row) => row.computerUserId),
    now: ctx.clock.now(),
    jsTimezoneOffsetMinutes: input.jsTimezoneOffsetMinutes,
  });
});
