import type { ActivityFeed, DaySummary, UserActivityItem } from '@keyward/contract/shared';
import {
  ACTIVITY_WINDOW_DAYS,
  type ActivityRow,
  checkActivityRange,
  coalesceActivity,
  localDayStart,
  summariseActivityDays,
} from '@keyward/domain/activity';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import { storedAlertWords } from './alerts.ts';
import type { Database } from '../db/schema.ts';
import { DAY, fromDbBool, toDbTime } from '../db/values.ts';
import { badRequest } from '../pairql/errors.ts';
import type { ScreenshotStorage } from '../services/storage.ts';

// Reading activity (server-behaviour §3.6, §7.3, §7.4): rows of the given (already owned) devices,
// coalesced by the domain rule, shaped for the wire. Callers check ownership first
// (operations/ownership.ts) and pass only the parent's device ids. A child's activity is its Macs'
// screenshots and typed lines and its iPhones' and iPads' screenshots (issue 18), under the same
// rules. A screenshot is an item only once its image is stored (`uploaded_at`, issue 19).

/** The devices a child's activity comes from: its Macs (computer users) and its iPhones and iPads. */
export interface ActivitySources {
  computerUserIds: readonly string[];
  iosDeviceIds: readonly string[];
}

export const NO_ACTIVITY_SOURCES: ActivitySources = { computerUserIds: [], iosDeviceIds: [] };

const hasSources = (sources: ActivitySources) =>
  sources.computerUserIds.length + sources.iosDeviceIds.length > 0;

/** Wire-contract §3.3: parseable, start ≤ end, at most 31 days; a 400 with a parent's message. */
export function parseActivityRange(range: { start: string; end: string }) {
  const checked = checkActivityRange(range);
  if (checked.ok) return checked;
  if (checked.reason === 'tooWide') {
    throw badRequest(
      '5e0d7c42',
      `Activity range wider than 31 days: ${range.start} – ${range.end}`,
      'Activity can be shown for at most 31 days at a time.',
    );
  }
  throw badRequest(
    'b23f9a61',
    `Activity range is ${checked.reason}: ${range.start} – ${range.end}`,
    'The dates of this activity page are not valid. Go back and pick a day again.',
  );
}

const date = (value: string | null) => (value === null ? null : new Date(value));

/** `where` of the screenshots taken on the given devices (Macs or iOS devices). */
export function screenshotsOf(
  eb: ExpressionBuilder<Database, 'screenshots'>,
  sources: ActivitySources,
): Expression<SqlBool> {
  const owners: Expression<SqlBool>[] = [];
  if (sources.computerUserIds.length > 0) {
    owners.push(eb('screenshots.computer_user_id', 'in', [...sources.computerUserIds]));
  }
  if (sources.iosDeviceIds.length > 0) {
    owners.push(eb('screenshots.ios_device_id', 'in', [...sources.iosDeviceIds]));
  }
  return owners.length === 1 ? owners[0]! : eb.or(owners);
}

interface RowQuery {
  sources: ActivitySources;
  /** `created_at > after` */
  after?: Date;
  /** `created_at <= until` */
  until?: Date;
  /** Also rows older than `after` that are flagged and not reviewed (§7.4). */
  withOlderFlagged?: boolean;
  /** Summaries need no text, object key or size. */
  countsOnly?: boolean;
}

/** Stored screenshots and keystroke lines of the given devices, reviewed ones included. */
export async function loadActivityRows(db: Db, query: RowQuery): Promise<ActivityRow[]> {
  if (!hasSources(query.sources)) return [];
  const macIds = [...query.sources.computerUserIds];
  const after = query.after ? toDbTime(query.after) : undefined;
  const until = query.until ? toDbTime(query.until) : undefined;

  const screenshots = await db
    .selectFrom('screenshots')
    .select(['id', 'created_at', 'deleted_at', 'flagged', 'filter_suspended'])
    .$if(!query.countsOnly, (qb) => qb.select(['object_key', 'width', 'height']))
    .where((eb) => screenshotsOf(eb, query.sources))
    .where('uploaded_at', 'is not', null)
    .$if(after !== undefined, (qb) =>
      qb.where((eb) =>
        query.withOlderFlagged
          ? eb.or([
              eb('created_at', '>', after!),
              eb.and([eb('flagged', 'is not', null), eb('deleted_at', 'is', null)]),
            ])
          : eb('created_at', '>', after!),
      ),
    )
    .$if(until !== undefined, (qb) => qb.where('created_at', '<=', until!))
    .execute();

  const lines =
    macIds.length === 0
      ? []
      : await db
          .selectFrom('keystroke_lines')
          .select([
            'id',
            'created_at',
            'deleted_at',
            'flagged',
            'filter_suspended',
            'app_name',
            'alert_category',
          ])
          .$if(!query.countsOnly, (qb) => qb.select(['line', 'alert_words']))
          .where('computer_user_id', 'in', macIds)
          .$if(after !== undefined, (qb) =>
            qb.where((eb) =>
              query.withOlderFlagged
                ? eb.or([
                    eb('created_at', '>', after!),
                    eb.and([eb('flagged', 'is not', null), eb('deleted_at', 'is', null)]),
                  ])
                : eb('created_at', '>', after!),
            ),
          )
          .$if(until !== undefined, (qb) => qb.where('created_at', '<=', until!))
          .execute();

  const rows: ActivityRow[] = [];
  for (const row of screenshots) {
    rows.push({
      kind: 'screenshot',
      id: row.id,
      createdAt: new Date(row.created_at),
      deletedAt: date(row.deleted_at),
      flaggedAt: date(row.flagged),
      filterSuspended: fromDbBool(row.filter_suspended),
      objectKey: row.object_key ?? '',
      width: row.width ?? 0,
      height: row.height ?? 0,
    });
  }
  for (const row of lines) {
    rows.push({
      kind: 'keystrokeLine',
      id: row.id,
      createdAt: new Date(row.created_at),
      deletedAt: date(row.deleted_at),
      flaggedAt: date(row.flagged),
      filterSuspended: fromDbBool(row.filter_suspended),
      appName: row.app_name,
      line: (row as { line?: string }).line ?? '',
      ...(row.alert_category === null
        ? {}
        : {
            alert: {
              category: row.alert_category,
              words: storedAlertWords((row as { alert_words?: unknown }).alert_words),
            },
          }),
    });
  }
  return rows;
}

/** One feed (§3.6): unreviewed entries newest first, and how many entries were reviewed. */
export async function buildActivityFeed(
  db: Db,
  storage: ScreenshotStorage,
  options: {
    userName: string;
    showSuspensionActivity: boolean;
    sources: ActivitySources;
    start: Date;
    end: Date;
  },
): Promise<ActivityFeed> {
  const rows = await loadActivityRows(db, {
    sources: options.sources,
    after: options.start,
    until: options.end,
  });
  const entries = coalesceActivity(rows);
  const items: UserActivityItem[] = [];
  let numDeleted = 0;
  for (const entry of entries) {
    if (entry.deletedAt !== null) {
      numDeleted += 1;
      continue;
    }
    const common = {
      id: entry.id,
      ids: entry.ids,
      duringSuspension: entry.duringSuspension,
      flagged: entry.flagged,
      createdAt: entry.createdAt.toISOString(),
    };
    items.push(
      entry.kind === 'screenshot'
        ? {
            case: 'screenshot',
            ...common,
            url: await storage.readUrl(entry.objectKey),
            width: entry.width,
            height: entry.height,
          }
        : {
            case: 'keystrokeLine',
            ...common,
            appName: entry.appName,
            line: entry.line,
            // issue 24: the key only on alerted lines, so other items stay byte for byte as before
            ...(entry.alert ? { alert: entry.alert } : {}),
          },
    );
  }
  return {
    userName: options.userName,
    showSuspensionActivity: options.showSuspensionActivity,
    numDeleted,
    items,
  };
}

/** §7.4: the last 14 local days plus older flagged, unreviewed items, per local day, newest first. */
export async function buildDaySummaries(
  db: Db,
  options: { sources: ActivitySources; now: Date; jsTimezoneOffsetMinutes: number },
): Promise<DaySummary[]> {
  const offset = normaliseOffset(options.jsTimezoneOffsetMinutes);
  const windowStart = new Date(
    localDayStart(options.now, offset).getTime() - (ACTIVITY_WINDOW_DAYS - 1) * DAY,
  );
  const rows = await loadActivityRows(db, {
    sources: options.sources,
    // start < createdAt: one millisecond earlier keeps an item at exactly local midnight
    after: new Date(windowStart.getTime() - 1),
    withOlderFlagged: true,
    countsOnly: true,
  });
  return summariseActivityDays(rows, offset).map((day) => ({
    date: day.date.toISOString(),
    numTotal: day.numTotal,
    numApproved: day.numApproved,
    numFlagged: day.numFlagged,
    ...(day.numAlerts > 0 ? { numAlerts: day.numAlerts } : {}),
  }));
}

/** Real offsets lie within ±14 h; anything else is a bad request rather than a strange answer. */
export function normaliseOffset(minutes: number): number {
  if (!Number.isInteger(minutes) || Math.abs(minutes) > 16 * 60) {
    throw badRequest(
      '0c6b3e85',
      `jsTimezoneOffsetMinutes out of range: ${minutes}`,
      'Your time zone could not be read. Reload the page and try again.',
    );
  }
  return minutes;
}
