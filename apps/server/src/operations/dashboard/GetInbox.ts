import { unreviewedAlertsByChild } from '../../activity/alerts.ts';
import { loadPendingRequests } from '../../devices/family-devices.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { pendingMoreTimeRequests } from '../../requests/more-time.ts';

// Issue 20: every request waiting for the parent (unlock requests, and suspension requests that can
// still be decided) from every kind of device, newest first. Polled by every open dashboard, so
// (issue 31) it lists a page of each child's newest and counts the rest ("and N more").
// Issue 32: with each child's alerts still to look at (a self-harm alert needs the parent too).
// Issue 34: and the requests for more screen time today.
export default dashboardResolver('GetInbox', async (_input, ctx) => {
  const [pending, alerts, moreTime] = await Promise.all([
    loadPendingRequests(ctx.db, { parentId: ctx.parentId, now: ctx.clock.now() }),
    unreviewedAlertsByChild(ctx.db, ctx.parentId),
    pendingMoreTimeRequests(ctx.db, ctx.parentId, ctx.clock.now()),
  ]);
  return { ...pending, alerts, ...(moreTime.length > 0 ? { moreTime } : {}) };
});
