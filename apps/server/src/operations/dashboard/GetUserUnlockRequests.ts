import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadUnlockRequestPage } from '../../requests/unlock-requests.ts';
import { ownedChild } from '../ownership.ts';

// server-behaviour §3.5: one owned child's unlock requests, pending first. Issue 19: the first page
// only, as GetUnlockRequests; GetUnlockRequestsPage reads the older ones.
export default dashboardResolver('GetUserUnlockRequests', async (childId, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, childId);
  return (await loadUnlockRequestPage(ctx.db, ctx.parentId, { childId: child.id })).requests;
});
