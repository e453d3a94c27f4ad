import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { MAX_BUNDLE_ID, MAX_HOSTNAME } from '../../requests/limits.ts';
import { storeUnlockRequests } from '../../requests/store-unlock-requests.ts';

// server-behaviour §4.3: the child asks to be let through one or more blocked requests, with one
// comment for all of them. The batch is stored in one transaction, then the parent is notified
// (§6.1), after the answer and grouped with the child's other requests (notifications/child-writes.ts).
// Issue 19: calls are budgeted per Mac and per child, and a request for a target this Mac has
// pending is answered with the pending request's id instead of being stored again.
export default deviceResolver('CreateUnlockRequests_v3', async (input, ctx) => {
  if (input.blockedRequests.length === 0) {
    throw badRequest(
      '2e8d6b13',
      'blockedRequests is empty',
      'Choose at least one blocked website or app to ask about.',
    );
  }
  const blank = (value: string | undefined) => value?.trim() || null;
  const requests = input.blockedRequests.map((blocked, index) => {
    const bundleId = blocked.bundleId.trim();
    const where = input.blockedRequests.length > 1 ? ` (request ${index + 1})` : '';
    if (bundleId === '') {
      throw badRequest(
        '9f3a0c58',
        `bundleId is empty${where}`,
        `The request is missing the app that was blocked${where}.`,
      );
    }
    if (bundleId.length > MAX_BUNDLE_ID) {
      throw badRequest(
        '6b4e1d27',
        `bundleId longer than ${MAX_BUNDLE_ID} characters${where}`,
        `The app's identifier is too long${where}.`,
      );
    }
    const hostname = blank(blocked.hostname);
    if (hostname !== null && hostname.length > MAX_HOSTNAME) {
      throw badRequest(
        'd83c5f0a',
        `hostname longer than ${MAX_HOSTNAME} characters${where}`,
        `The website's name is too long${where}.`,
      );
    }
    return {
      app_bundle_id: bundleId,
      url: blank(blocked.url),
      hostname,
      ip_address: blank(blocked.ipAddress),
    };
  });

  return storeUnlockRequests(
    ctx,
    { computerUserId: ctx.computerUserId, childId: ctx.childId, parentId: ctx.parentId },
    requests,
    blank(input.comment),
  );
});
