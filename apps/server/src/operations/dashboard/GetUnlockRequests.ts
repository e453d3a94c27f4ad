import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadUnlockRequests } from '../../requests/unlock-requests.ts';

// server-behaviour §3.5: the unlock requests of all the parent's children, pending first.
export default dashboardResolver('GetUnlockRequests', async (_input, ctx) =>
  loadUnlockRequests(ctx.db, ctx.parentId),
);
