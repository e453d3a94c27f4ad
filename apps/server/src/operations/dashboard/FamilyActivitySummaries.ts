import { buildDaySummaries } from '../../activity/activity.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedActivitySourcesByChild } from '../ownership.ts';

// server-behaviour §3.6, §7.4: day summaries over all the parent's devices (Macs and iOS devices).
export default dashboardResolver('FamilyActivitySummaries', async (input, ctx) => {
  const byChild = [...(await ownedActivitySourcesByChild(ctx.db, ctx.parentId)).values()];
  return buildDaySummaries(ctx.db, {
    sources: {
      computerUserIds: byChild.flatMap((sources) => sources.computerUserIds),
      iosDeviceIds: byChild.flatMap((sources) => sources.iosDeviceIds),
    },
    now: ctx.clock.now(),
    jsTimezoneOffsetMinutes: input.jsTimezoneOffsetMinutes,
  });
});
