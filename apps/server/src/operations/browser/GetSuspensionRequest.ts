import { loadBrowserSuspensionRequest } from '../../devices/browsers.ts';
import { notFound } from '../../pairql/errors.ts';
import { browserResolver } from '../../pairql/resolver.ts';

// Issue 22: the live status of the browser's suspension request (its own requests only).
export default browserResolver('GetSuspensionRequest', async (input, ctx) => {
  const request = await loadBrowserSuspensionRequest(ctx.db, ctx.computerUserId, input.id);
  if (!request) {
    throw notFound('SuspendFilterRequest');
  }
  return request;
});
