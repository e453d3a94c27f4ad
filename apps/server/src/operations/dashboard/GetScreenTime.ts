import { familyTimeZoneOf, screenTimeUsage } from '../../children/screen-time.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChild } from '../ownership.ts';

// Issue 34: the child's time today and on each of the last 7 days against the allowance, and the
// week's top sites. Read fresh (not through the read cache): it changes with every minute counted.
export default dashboardResolver('GetScreenTime', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.childId);
  const timeZone = await familyTimeZoneOf(ctx.db, ctx.parentId);
  return screenTimeUsage(ctx.db, child, timeZone, ctx.clock.now());
});
