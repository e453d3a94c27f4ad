import { planUnlockRequests } from '@keyward/domain/request-flood';
import { dialectOf } from '../../db/database.ts';
import { toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { lockDevice } from '../../requests/device-lock.ts';
import { MAX_BUNDLE_ID, MAX_HOSTNAME } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3: the child asks to be let through one or more blocked requests, with one
// comment for all of them. The batch is stored in one transaction, then the parent is notified
// (§6.1), after the answer and grouped with the child's other requests (requests/notify.ts).
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

  await takeDeviceWriteBudget(ctx, 'unlockRequests', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });

  const now = ctx.clock.now();
  const at = toDbTime(now);
  const comment = blank(input.comment);
  const { ids, stored } = await ctx.db.transaction().execute(async (trx) => {
    await lockDevice(trx, dialectOf(ctx.config), { computerUserId: ctx.computerUserId });
    const pending = await trx
      .selectFrom('unlock_requests')
      .select(['id', 'app_bundle_id', 'url', 'hostname', 'ip_address'])
      .where('computer_user_id', '=', ctx.computerUserId)
      .where('status', '=', 'pending')
      .where('app_bundle_id', 'in', [...new Set(requests.map((r) => r.app_bundle_id))])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const target = (r: (typeof requests)[number]) => ({
      bundleId: r.app_bundle_id,
      url: r.url,
      hostname: r.hostname,
      ipAddress: r.ip_address,
    });
    const plan = planUnlockRequests(
      pending.map((row) => ({ id: row.id, ...target(row) })),
      requests.map(target),
      newToken,
    );
    const rows = plan.toStore.map((position) => ({
      id: plan.ids[position]!,
      computer_user_id: ctx.computerUserId,
      status: 'pending' as const,
      ...requests[position]!,
      request_comment: comment,
      response_comment: null,
      created_at: at,
      updated_at: at,
    }));
    // one statement per 100 rows keeps every dialect under its bound-parameter limit
    for (let start = 0; start < rows.length; start += 100) {
      await trx
        .insertInto('unlock_requests')
        .values(rows.slice(start, start + 100))
        .execute();
    }
    return { ids: plan.ids, stored: rows.map((row) => row.id) };
  });

  if (stored.length > 0) {
    notifyAboutChild(ctx, {
      trigger: 'unlockRequestSubmitted',
      parentId: ctx.parentId,
      childId: ctx.childId,
      at: now,
      ids: stored,
    });
  }
  return ids;
});
