import { notFound } from '../../pairql/errors.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { loadBrowserMoreTimeRequest } from '../../requests/more-time.ts';

// Issue 34: the status of this browser's own request (the Time's up page polls it).
export default browserResolver('GetMoreTimeRequest', async (input, ctx) => {
  const request = await loadBrowserMoreTimeRequest(ctx.db, ctx.computerUserId, input.id);
  if (!request) throw notFound('MoreTimeRequest');
  return request;
});
