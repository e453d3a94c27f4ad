import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadUnlockRequests } from '../../requests/unlock-requests.ts';
import { ownedChild } from '../ownership.ts';

// server-behaviour §3.5: one owned child's unlock requests, pending first.
export default dashboardResolver('GetUserUnlockRequests', async (childId, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, childId);
  return loadUnlockRequests(ctx.db, ctx.parentId, { childId: child.id });
});
