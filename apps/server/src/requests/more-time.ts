import type { BrowserMoreTimeRequest } from '@keyward/contract/browser';
import type { DecideMoreTimeRequestInput, MoreTimeInboxItem } from '@keyward/contract/shared';
import { localDay, MORE_TIME_CHOICES } from '@keyward/domain/screen-time';
import { familyTimeZoneOf } from '../children/screen-time.ts';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';
import { takeDeviceWriteBudget } from '../devices/write-budgets.ts';
import { describeModel } from '@keyward/domain/device-models';
import type { BrowserContext, ParentContext } from '../pairql/context.ts';
import { badRequest } from '../pairql/errors.ts';
import { newToken } from '../services/tokens.ts';
import { ownedMoreTimeRequest } from '../operations/ownership.ts';
import { ALREADY_DECIDED_TAG } from './decisions.ts';
import { lockDevice } from './device-lock.ts';
import { notifyAboutChild } from '../notifications/child-writes.ts';

// Issue 34: "Ask for 15 / 30 / 60 more minutes" on a browser's Time's up page, through the path of
// the suspension requests: budgeted per device and per child (the suspension requests' budget),
// one pending request per browser (asking again answers the pending one), decided once by the
// parent (a conditional update of a pending row: of parallel decisions exactly one is stored). A
// grant adds its minutes to the family's local day it was asked on; every browser of the child
// hears of it on its channel (userUpdated → rulesChanged, and moreTimeDecided to the one that asked).

/** A request can be decided on the day it was asked for only (the time is for that day). */
export function moreTimeRequestExpired() {
  return badRequest(
    '4e8a1d27',
    'More-time request of an earlier day',
    'This request was for an earlier day. Your child can ask again today.',
  );
}

export function moreTimeRequestAlreadyDecided(status: string) {
  const decided = status === 'accepted' ? 'granted' : 'denied';
  return badRequest(
    '9b2f6c40',
    `More-time request already ${status}`,
    `This request for more time was already ${decided}.`,
    { dashboardTag: ALREADY_DECIDED_TAG },
  );
}

export async function askForMoreTime(
  ctx: BrowserContext,
  input: { minutes: number; comment?: string | undefined },
): Promise<string> {
  if (!(MORE_TIME_CHOICES as readonly number[]).includes(input.minutes)) {
    throw badRequest(
      'c1a7e5b2',
      `More time of ${input.minutes} minutes`,
      'Ask for 15, 30 or 60 minutes.',
    );
  }
  await takeDeviceWriteBudget(ctx, 'suspensionRequests', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });
  const now = ctx.clock.now();
  const day = localDay(now, await familyTimeZoneOf(ctx.db, ctx.parentId)).date;
  const { id, isNew } = await ctx.db.transaction().execute(async (trx) => {
    await lockDevice(trx, dialectOf(ctx.config), { computerUserId: ctx.computerUserId });
    const pending = await trx
      .selectFrom('more_time_requests')
      .select('id')
      .where('computer_user_id', '=', ctx.computerUserId)
      .where('status', '=', 'pending')
      .where('day', '=', day)
      .executeTakeFirst();
    if (pending) return { id: pending.id, isNew: false };
    const id = newToken();
    await trx
      .insertInto('more_time_requests')
      .values({
        id,
        child_id: ctx.childId,
        computer_user_id: ctx.computerUserId,
        day,
        requested_minutes: input.minutes,
        granted_minutes: null,
        status: 'pending',
        request_comment: input.comment?.trim() || null,
        response_comment: null,
        created_at: toDbTime(now),
        updated_at: toDbTime(now),
      })
      .execute();
    return { id, isNew: true };
  });
  // after the commit, grouped with the child's other requests for time of the window
  if (isNew) {
    notifyAboutChild(ctx, {
      trigger: 'suspendFilterRequestSubmitted',
      moreTime: true,
      parentId: ctx.parentId,
      childId: ctx.childId,
      at: now,
    });
  }
  return id;
}

/** A request of this browser (another browser's id is not found). */
export async function loadBrowserMoreTimeRequest(
  db: Db,
  computerUserId: string,
  id: string,
): Promise<BrowserMoreTimeRequest | undefined> {
  const row = await db
    .selectFrom('more_time_requests')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('computer_user_id', '=', computerUserId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    status: row.status,
    requestedMinutes: row.requested_minutes,
    ...(row.granted_minutes !== null ? { grantedMinutes: row.granted_minutes } : {}),
    ...(row.response_comment !== null ? { responseComment: row.response_comment } : {}),
  };
}

/** The parent's decision; returns the browser that asked and the child, for the pushes. */
export async function decideMoreTime(
  ctx: ParentContext,
  input: DecideMoreTimeRequestInput,
): Promise<{ computerUserId: string; childId: string }> {
  const found = await ownedMoreTimeRequest(ctx.db, ctx.parentId, input.id);
  if (found.status !== 'pending') throw moreTimeRequestAlreadyDecided(found.status);
  const now = ctx.clock.now();
  const today = localDay(now, await familyTimeZoneOf(ctx.db, ctx.parentId)).date;
  if (found.day !== today) throw moreTimeRequestExpired();
  let granted: number | null = null;
  if (input.decision.case === 'accepted') {
    const minutes = input.decision.minutes;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60) {
      throw badRequest(
        '6d3b9f18',
        `Granted ${minutes} more minutes`,
        'Give between 1 minute and 24 hours of more time.',
      );
    }
    granted = minutes;
  }
  const responseComment = input.responseComment?.trim() || null;
  await ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('more_time_requests')
      .set({
        status: granted === null ? 'rejected' : 'accepted',
        granted_minutes: granted,
        response_comment: responseComment,
        updated_at: toDbTime(now),
      })
      .where('id', '=', found.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return;
    const current = await ownedMoreTimeRequest(trx, ctx.parentId, found.id);
    throw moreTimeRequestAlreadyDecided(current.status);
  });
  return { computerUserId: found.computer_user_id, childId: found.child_id };
}

/** Pending requests of the family's children for today, newest first (the inbox). */
export async function pendingMoreTimeRequests(
  db: Db,
  parentId: string,
  now: Date,
): Promise<MoreTimeInboxItem[]> {
  const today = localDay(now, await familyTimeZoneOf(db, parentId)).date;
  const rows = await db
    .selectFrom('more_time_requests as r')
    .innerJoin('children as c', 'c.id', 'r.child_id')
    .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
    .innerJoin('computers as k', 'k.id', 'cu.computer_id')
    .select([
      'r.id',
      'r.child_id',
      'c.name as child_name',
      'r.computer_user_id',
      'k.custom_name',
      'k.model_identifier',
      'k.kind',
      'r.created_at',
      'r.request_comment',
      'r.requested_minutes',
    ])
    .where('c.parent_id', '=', parentId)
    .where('r.status', '=', 'pending')
    .where('r.day', '=', today)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .limit(50)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    childId: row.child_id,
    childName: row.child_name,
    device: {
      kind: row.kind === 'browser' ? 'browser' : row.kind === 'dns' ? 'dns' : 'mac',
      id: row.computer_user_id,
      name: row.custom_name ?? describeModel(row.model_identifier).title,
    },
    createdAt: row.created_at.replace(/\.\d{3}Z$/, 'Z'),
    ...(row.request_comment !== null ? { requestComment: row.request_comment } : {}),
    requestedMinutes: row.requested_minutes,
  }));
}
