import { notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadUnlockRequests } from '../../requests/unlock-requests.ts';
import { ownedUnlockRequest } from '../ownership.ts';

// server-behaviour §3.5: one unlock request of an owned child.
export default dashboardResolver('GetUnlockRequest', async (id, ctx) => {
  const owned = await ownedUnlockRequest(ctx.db, ctx.parentId, id);
  const [request] = await loadUnlockRequests(ctx.db, ctx.parentId, { id: owned.id });
  if (!request) throw notFound('UnlockRequest');
  return request;
});
