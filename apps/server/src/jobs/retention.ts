import { activityRetentionCutoffs } from '@keyward/domain/activity';
import { ABANDONED_UPLOAD_GRACE_MS } from '../activity/screenshot-uploads.ts';
import { pruneAuditLog } from '../audit/record.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { DAY, HOUR, toDbTime } from '../db/values.ts';
import type { ScreenshotStorage } from '../services/storage.ts';
import { claimJobRun, dailyRunKey, finishJobRun, releaseJobRun } from './claim.ts';

// The nightly retention job (server-behaviour §7.2, §9), 02:30 UTC. Idempotent; safe to re-run.

export const RETENTION_JOB = 'retention';

/** Rate-limit windows are at most an hour long; a day-old window is certainly over. */
const RATE_LIMIT_WINDOW_KEEP_MS = DAY;
/** An object younger than this may belong to an upload whose row is being written right now. */
const ORPHAN_GRACE_MS = 6 * HOUR;
const BATCH = 500;

export interface RetentionDeps {
  db: Db;
  storage: ScreenshotStorage;
  mode: Config['mode'];
}

export interface RetentionReport {
  /** issue 23: expired one-tap decision tokens of push notifications */
  pushActionTokens: number;
  screenshots: number;
  /** screenshot rows whose image never came, an hour after their upload URL expired (issue 19) */
  abandonedUploads: number;
  keystrokeLines: number;
  unlockRequests: number;
  suspendFilterRequests: number;
  sessions: number;
  announcements: number;
  oneTimeTokens: number;
  macTokens: number;
  connectionCodes: number;
  pendingNotificationMethods: number;
  rateLimitWindows: number;
  orphanedObjects: number;
  /** audit log entries older than a year (issue 12) */
  auditEntries: number;
  /** co-parent invitation links expired for a week or more */
  parentInvitations: number;
  /** expired sign-in challenges and WebAuthn ceremonies (issue 12) */
  signInChallenges: number;
  /** data exports whose link expired, or unfinished for a week, with their ZIP files (issue 12) */
  dataExports: number;
  /** issue 34: counted minutes and requests for more time older than 8 days (the week is 7) */
  screenTimeMinutes: number;
  moreTimeRequests: number;
}

const count = (result: { numDeletedRows: bigint } | undefined) =>
  Number(result?.numDeletedRows ?? 0);

/** Runs today's retention unless another instance already claimed it; null when skipped. */
export async function runDailyRetention(
  deps: RetentionDeps,
  now: Date,
): Promise<RetentionReport | null> {
  const runKey = dailyRunKey(now);
  if (!(await claimJobRun(deps.db, RETENTION_JOB, runKey, now))) return null;
  try {
    const report = await runRetention(deps, now);
    await finishJobRun(deps.db, RETENTION_JOB, runKey, new Date());
    return report;
  } catch (error) {
    await releaseJobRun(deps.db, RETENTION_JOB, runKey);
    throw error;
  }
}

/** One pass of every rule of §7.2 as of `now` (the clock is injected so tests can move it). */
export async function runRetention(deps: RetentionDeps, now: Date): Promise<RetentionReport> {
  const { db, storage } = deps;
  const at = (ms: number) => toDbTime(new Date(now.getTime() - ms));
  const nowTs = toDbTime(now);
  const cutoffs = activityRetentionCutoffs(now);
  const reviewedBefore = toDbTime(cutoffs.reviewedBefore);
  const createdBefore = toDbTime(cutoffs.createdBefore);
  const flaggedBefore = toDbTime(cutoffs.flaggedBefore);

  // Activity: (reviewed ≥ 14 d ago OR created ≥ 21 d ago) AND (not flagged OR flagged ≥ 60 d ago).
  let screenshots = 0;
  for (;;) {
    const due = await db
      .selectFrom('screenshots')
      .select(['id', 'object_key'])
      .where((eb) =>
        eb.and([
          eb.or([eb('deleted_at', '<=', reviewedBefore), eb('created_at', '<=', createdBefore)]),
          eb.or([eb('flagged', 'is', null), eb('flagged', '<=', flaggedBefore)]),
        ]),
      )
      .limit(BATCH)
      .execute();
    if (due.length === 0) break;
    await db
      .deleteFrom('screenshots')
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .execute();
    await storage.remove(due.map((row) => row.object_key));
    screenshots += due.length;
    if (due.length < BATCH) break;
  }

  const abandonedUploads = await removeAbandonedUploads(deps, now);

  const keystrokeLines = count(
    await db
      .deleteFrom('keystroke_lines')
      .where((eb) =>
        eb.and([
          eb.or([eb('deleted_at', '<=', reviewedBefore), eb('created_at', '<=', createdBefore)]),
          eb.or([eb('flagged', 'is', null), eb('flagged', '<=', flaggedBefore)]),
        ]),
      )
      .executeTakeFirst(),
  );

  // Requests: decided ones 3 days after their last update, pending ones after 7 days;
  // suspension requests 3 days after creation, whatever their status.
  const unlockRequests = count(
    await db
      .deleteFrom('unlock_requests')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '!=', 'pending'), eb('updated_at', '<=', at(3 * DAY))]),
          eb.and([eb('status', '=', 'pending'), eb('created_at', '<=', at(7 * DAY))]),
        ]),
      )
      .executeTakeFirst(),
  );
  const suspendFilterRequests =
    count(
      await db
        .deleteFrom('mac_suspend_filter_requests')
        .where('created_at', '<=', at(3 * DAY))
        .executeTakeFirst(),
    ) +
    count(
      await db
        .deleteFrom('ios_suspend_filter_requests')
        .where('created_at', '<=', at(3 * DAY))
        .executeTakeFirst(),
    );

  // Short-lived secrets and coordination state.
  const sessions = count(
    await db
      .deleteFrom('dashboard_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', nowTs), eb('revoked_at', 'is not', null)]))
      .executeTakeFirst(),
  );
  const announcements = count(
    await db.deleteFrom('announcements').where('deleted_at', '<=', nowTs).executeTakeFirst(),
  );
  const oneTimeTokens = count(
    await db
      .deleteFrom('one_time_tokens')
      .where('expires_at', '<=', at(7 * DAY))
      .executeTakeFirst(),
  );
  const macTokens = count(
    await db.deleteFrom('mac_app_tokens').where('deleted_at', '<=', nowTs).executeTakeFirst(),
  );
  const connectionCodes = count(
    await db.deleteFrom('connection_codes').where('expires_at', '<=', nowTs).executeTakeFirst(),
  );
  const pendingNotificationMethods = count(
    await db
      .deleteFrom('pending_notification_methods')
      .where('expires_at', '<=', nowTs)
      .executeTakeFirst(),
  );
  const rateLimitWindows = count(
    await db
      .deleteFrom('rate_limit_counters')
      .where('window_start', '<=', at(RATE_LIMIT_WINDOW_KEEP_MS))
      .executeTakeFirst(),
  );

  const orphanedObjects = await removeOrphanedObjects(deps, now);
  const auditEntries = await pruneAuditLog(db, now);
  const parentInvitations = count(
    await db
      .deleteFrom('parent_invitations')
      .where('expires_at', '<=', at(7 * DAY))
      .executeTakeFirst(),
  );

  const signInChallenges =
    count(
      await db
        .deleteFrom('webauthn_challenges')
        .where('expires_at', '<=', nowTs)
        .executeTakeFirst(),
    ) +
    count(
      await db
        .deleteFrom('second_factor_challenges')
        .where('expires_at', '<=', nowTs)
        .executeTakeFirst(),
    );
  const dataExports = await removeExpiredDataExports(deps, nowTs, at(7 * DAY));
  // issue 23: a notification's one-tap decision tokens live 30 minutes, used or not
  const pushActionTokens = count(
    await db.deleteFrom('push_action_tokens').where('expires_at', '<=', nowTs).executeTakeFirst(),
  );

  // issue 34: the week's chart and the weekly report read 7 days; a browser reports a week at most
  const screenTimeMinutes = count(
    await db
      .deleteFrom('screen_time_minutes')
      .where('minute', '<=', at(8 * DAY))
      .executeTakeFirst(),
  );
  const moreTimeRequests = count(
    await db
      .deleteFrom('more_time_requests')
      .where('created_at', '<=', at(8 * DAY))
      .executeTakeFirst(),
  );

  return {
    screenTimeMinutes,
    moreTimeRequests,
    pushActionTokens,
    screenshots,
    abandonedUploads,
    keystrokeLines,
    unlockRequests,
    suspendFilterRequests,
    sessions,
    announcements,
    oneTimeTokens,
    macTokens,
    connectionCodes,
    pendingNotificationMethods,
    rateLimitWindows,
    orphanedObjects,
    auditEntries,
    parentInvitations,
    signInChallenges,
    dataExports,
  };
}

/**
 * Screenshot rows still without their image an hour after their upload URL expired: the device never
 * sent it, or the server stopped between writing the image and marking it stored. They were never
 * shown; the row goes with whatever object it may have.
 */
async function removeAbandonedUploads(deps: RetentionDeps, now: Date): Promise<number> {
  const expiredBefore = toDbTime(new Date(now.getTime() - ABANDONED_UPLOAD_GRACE_MS));
  let removed = 0;
  for (;;) {
    const due = await deps.db
      .selectFrom('screenshots')
      .select('id')
      .where('uploaded_at', 'is', null)
      .where('upload_expires_at', '<=', expiredBefore)
      .limit(BATCH)
      .execute();
    if (due.length === 0) break;
    const gone = await deps.db
      .deleteFrom('screenshots')
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .where('uploaded_at', 'is', null)
      .returning('object_key')
      .execute();
    await deps.storage.remove(gone.map((row) => row.object_key));
    removed += gone.length;
    if (due.length < BATCH) break;
  }
  return removed;
}

async function removeExpiredDataExports(deps: RetentionDeps, nowTs: string, weekAgo: string) {
  const rows = await deps.db
    .selectFrom('data_exports')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', nowTs),
        eb.and([eb('status', '!=', 'ready'), eb('created_at', '<=', weekAgo)]),
      ]),
    )
    .execute();
  for (const row of rows) {
    await deps.storage.exports.remove([row.id]);
    await deps.db.deleteFrom('data_exports').where('id', '=', row.id).execute();
  }
  return rows.length;
}

/**
 * Objects of this mode's directory with no screenshot row (rows removed by a cascade, e.g. a deleted
 * child, leave their objects behind; §1.6). Recent objects are left alone.
 */
async function removeOrphanedObjects(deps: RetentionDeps, now: Date): Promise<number> {
  const prefix = deps.mode === 'production' ? 'screenshots/' : `${deps.mode}-screenshots/`;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const known = await deps.db
      .selectFrom('screenshots')
      .select('object_key')
      .where('object_key', 'in', batch)
      .execute();
    const kept = new Set(known.map((row) => row.object_key));
    const orphans = batch.filter((key) => !kept.has(key));
    await deps.storage.remove(orphans);
    removed += orphans.length;
    batch = [];
  };
  for await (const object of deps.storage.list(prefix)) {
    if (now.getTime() - object.lastModified.getTime() < ORPHAN_GRACE_MS) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return removed;
}
