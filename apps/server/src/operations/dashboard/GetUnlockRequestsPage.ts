import { parseUnlockRequestCursor } from '@keyward/domain/unlock-request-list';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadUnlockRequestPage } from '../../requests/unlock-requests.ts';
import { ownedChild } from '../ownership.ts';

// Issue 19 (finding 9): the unlock-request list a page at a time, of all the parent's children or of
// one owned child. Without `before`, the first page (what GetUnlockRequests answers); with the
// `nextBefore` of a page, the page after it.
export default dashboardResolver('GetUnlockRequestsPage', async (input, ctx) => {
  const childId =
    input.childId === undefined
      ? undefined
      : (await ownedChild(ctx.db, ctx.parentId, input.childId)).id;
  const after = input.before === undefined ? undefined : parseUnlockRequestCursor(input.before);
  if (input.before !== undefined && !after) {
    throw badRequest(
      '7b2e4d19',
      `Unlock request list cursor not understood: ${input.before}`,
      'The list could not be continued. Reload the page to see the requests.',
    );
  }
  return loadUnlockRequestPage(ctx.db, ctx.parentId, { childId, after });
});
