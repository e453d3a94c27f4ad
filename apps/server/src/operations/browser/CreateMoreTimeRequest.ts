import { serverError } from '../../pairql/errors.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { askForMoreTime, loadBrowserMoreTimeRequest } from '../../requests/more-time.ts';

// Issue 34: "Ask for 15 / 30 / 60 more minutes" on the Time's up page (requests/more-time.ts).
export default browserResolver('CreateMoreTimeRequest', async (input, ctx) => {
  const id = await askForMoreTime(ctx, input);
  const request = await loadBrowserMoreTimeRequest(ctx.db, ctx.computerUserId, id);
  if (!request)
    throw serverError('5a0e7b3c', `More-time request ${id} vanished after its creation`);
  return request;
});
