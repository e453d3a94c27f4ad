import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { MAX_BUNDLE_ID, MAX_HOSTNAME } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3: the child asks to be let through one or more blocked requests, with one
// comment for all of them. The batch is stored in one transaction, then the parent is notified
// once for the whole batch (§6.1), after the answer (requests/notify.ts).
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

  const at = toDbTime(ctx.clock.now());
  const comment = blank(input.comment);
  const rows = requests.map((request) => ({
    id: newToken(),
    computer_user_id: ctx.computerUserId,
    status: 'pending' as const,
    ...request,
    request_comment: comment,
    response_comment: null,
    created_at: at,
    updated_at: at,
  }));
  await ctx.db.transaction().execute(async (trx) => {
    // one statement per 100 rows keeps every dialect under its bound-parameter limit
    for (let start = 0; start < rows.length; start += 100) {
      await trx
        .insertInto('unlock_requests')
        .values(rows.slice(start, start + 100))
        .execute();
    }
  });

  const ids = rows.map((row) => row.id);
  notifyAboutChild(ctx, ctx.childId, (childName) => ({
    trigger: 'unlockRequestSubmitted',
    parentId: ctx.parentId,
    childId: ctx.childId,
    childName,
    requestIds: ids,
  }));
  return ids;
});
