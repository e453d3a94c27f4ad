import { loadPendingRequests } from '../../devices/family-devices.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 20: every request waiting for the parent (unlock requests, and suspension requests that can
// still be decided) from every kind of device, newest first. Polled by every open dashboard, so
// (issue 31) it lists a page of each child's newest and counts the rest ("and N more").
export default dashboardResolver('GetInbox', async (_input, ctx) =>
  loadPendingRequests(ctx.db, { parentId: ctx.parentId, now: ctx.clock.now() }),
);
