import { browserAppId, loadBrowserUnlockRequests } from '../../devices/browsers.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { storeUnlockRequests } from '../../requests/store-unlock-requests.ts';

// Issue 22: from the block page, the child asks for the blocked page and any of its blocked parts,
// with one comment. The same requests as a Mac's (the app is the browser), so the parent decides
// them where they decide every request.

export default browserResolver('CreateUnlockRequests', async (input, ctx) => {
  const app = browserAppId(ctx.browser);
  const ids = await storeUnlockRequests(
    ctx,
    ctx,
    input.urls.map((url) => ({
      app_bundle_id: app,
      url,
      hostname: new URL(url).hostname.toLowerCase(),
      ip_address: null,
    })),
    input.comment?.trim() || null,
  );
  const stored = await loadBrowserUnlockRequests(ctx.db, ctx.computerUserId, ids);
  const byId = new Map(stored.map((request) => [request.id, request]));
  return ids.flatMap((id) => byId.get(id) ?? []);
});
