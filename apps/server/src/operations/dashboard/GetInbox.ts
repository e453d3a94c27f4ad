import { unreviewedAlertsByChild } from '../../activity/alerts.ts';
import { loadPendingRequests } from '../../devices/family-devices.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 20: every request waiting for the parent (unlock requests, and suspension requests that can
// still be decided) from every kind of device, newest first. Polled by every open dashboard.
// Issue 32: with each child's alerts still to look at (a self-harm alert needs the parent too).
export default dashboardResolver('GetInbox', async (_input, ctx) => {
  const [items, alerts] = await Promise.all([
    loadPendingRequests(ctx.db, { parentId: ctx.parentId, now: ctx.clock.now() }),
    unreviewedAlertsByChild(ctx.db, ctx.parentId),
  ]);
  return { items, alerts };
});
