import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadUnlockRequestPage } from '../../requests/unlock-requests.ts';

// server-behaviour §3.5: the unlock requests of all the parent's children, pending first. Issue 19:
// the first page of the list only (pending requests, then the newest decided ones), the answer the
// reference dashboard decodes; GetUnlockRequestsPage reads the older ones.
export default dashboardResolver(
  'GetUnlockRequests',
  async (_input, ctx) => (await loadUnlockRequestPage(ctx.db, ctx.parentId, {})).requests,
);
