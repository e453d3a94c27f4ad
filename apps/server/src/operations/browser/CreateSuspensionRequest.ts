import { loadBrowserSuspensionRequest } from '../../devices/browsers.ts';
import { serverError } from '../../pairql/errors.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { askForSuspension } from '../../requests/suspension-request.ts';

// Issue 22: "Ask to turn the filter off for…" on the block page: the same suspension requests as a
// Mac's (a browser is a computer user), decided by the parent in the same place.
export default browserResolver('CreateSuspensionRequest', async (input, ctx) => {
  const id = await askForSuspension(
    ctx,
    { kind: 'mac', deviceId: ctx.computerUserId, childId: ctx.childId, parentId: ctx.parentId },
    { duration: input.seconds, ...(input.comment ? { comment: input.comment } : {}) },
  );
  const request = await loadBrowserSuspensionRequest(ctx.db, ctx.computerUserId, id);
  if (!request)
    throw serverError('0b6d3e95', `Suspension request ${id} vanished after its creation`);
  return request;
});
