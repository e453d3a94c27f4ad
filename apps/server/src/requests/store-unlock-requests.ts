import {
  fitsPendingBudget,
  PENDING_UNLOCKS_PER_CHILD,
  PENDING_UNLOCKS_PER_DEVICE,
  planUnlockRequests,
} from '@keyward/domain/request-flood';
import type { Db } from '../db/database.ts';
import { tooManyRequests } from '../pairql/errors.ts';
import { dialectOf } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';
import { takeDeviceWriteBudget } from '../devices/write-budgets.ts';
import type { RequestContext } from '../pairql/context.ts';
import { newToken } from '../services/tokens.ts';
import { lockDevice } from './device-lock.ts';
import { notifyAboutChild } from '../notifications/child-writes.ts';
import { countChildPendingUnlocks, countPendingUnlocks } from '../devices/pending-counts.ts';

// server-behaviour §4.3: a child's blocked requests, stored in one transaction with one comment,
// then the parent is notified (§6.1) after the answer and grouped with the child's other requests
// (notifications/child-writes.ts). Issue 19: calls are budgeted per device and per child, and a request for a target
// the device already has pending is not stored twice (its id comes back). The Mac and Keyward for
// Chrome (issue 22) both ask through here: a browser is a computer user like a Mac's.

export interface UnlockRequestToStore {
  app_bundle_id: string;
  url: string | null;
  hostname: string | null;
  ip_address: string | null;
}

/** Stores the requests; returns one id per request, in order (an already pending one's id). */
export async function storeUnlockRequests(
  ctx: RequestContext,
  device: { computerUserId: string; childId: string; parentId: string },
  requests: readonly UnlockRequestToStore[],
  comment: string | null,
): Promise<string[]> {
  await takeDeviceWriteBudget(ctx, 'unlockRequests', {
    deviceId: device.computerUserId,
    childId: device.childId,
  });

  const now = ctx.clock.now();
  const at = toDbTime(now);
  const { ids, stored } = await ctx.db.transaction().execute(async (trx) => {
    await lockDevice(trx, dialectOf(ctx.config), { computerUserId: device.computerUserId });
    const pending = await trx
      .selectFrom('unlock_requests')
      .select(['id', 'app_bundle_id', 'url', 'hostname', 'ip_address'])
      .where('computer_user_id', '=', device.computerUserId)
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
    // issue 31: what is stored is budgeted, not only calls; a batch that does not fit is refused
    // whole (429), so the device keeps its requests and sends them again later
    if (plan.toStore.length > 0) {
      const waiting = await pendingCounts(trx, device);
      if (!fitsPendingBudget(waiting, plan.toStore.length)) {
        throw tooManyRequests(
          PENDING_BUDGET_RETRY_SECONDS,
          'Your parents have many requests from you to answer. Please wait for them before asking again.',
        );
      }
    }
    const rows = plan.toStore.map((position) => ({
      id: plan.ids[position]!,
      computer_user_id: device.computerUserId,
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
      parentId: device.parentId,
      childId: device.childId,
      at: now,
      ids: stored,
    });
  }
  return ids;
}

/** A device asked past its stored budget hears to try again in this many seconds. */
const PENDING_BUDGET_RETRY_SECONDS = 10 * 60;

/**
 * Pending unlock requests of the device and of its child (all its devices), from the index, each
 * counted just past its budget (enough to decide).
 */
async function pendingCounts(
  trx: Db,
  device: { computerUserId: string; childId: string },
): Promise<{ device: number; child: number }> {
  return {
    device: await countPendingUnlocks(trx, device.computerUserId, PENDING_UNLOCKS_PER_DEVICE + 1),
    child: await countChildPendingUnlocks(trx, device.childId, PENDING_UNLOCKS_PER_CHILD + 1),
  };
}
