import { loadBrowserUnlockRequests } from '../../devices/browsers.ts';
import { browserResolver } from '../../pairql/resolver.ts';

// Issue 22: the block page's live status when the push channel is down (ids of other devices are
// left out, as if they did not exist).
export default browserResolver('GetUnlockRequests', (input, ctx) =>
  loadBrowserUnlockRequests(ctx.db, ctx.computerUserId, input.ids),
);
