// Activity review rules (spec §4 'Activity', §9; server behaviour §7.2–§7.4).

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Summaries cover items created in the last 14 days (plus older flagged, unreviewed ones). */
export const ACTIVITY_WINDOW_DAYS = 14;
/** A feed range may not be wider than this. */
export const MAX_ACTIVITY_RANGE_DAYS = 31;
/** The review page offers 'Delete previous N items' every this many items. */
export const ACTIVITY_DELETE_CHUNK = 100;
/** Suspension grouping: a keystroke line joins a group if suspension items follow within this. */
export const SUSPENSION_GROUPING_WINDOW_MS = 4 * MINUTE_MS;
/** Retention (§7.2). */
export const REVIEWED_RETENTION_DAYS = 14;
export const UNREVIEWED_RETENTION_DAYS = 21;
export const FLAG_PROTECTION_DAYS = 60;

/** One stored row: a screenshot or a keystroke line, as the coalescing rule sees it. */
export type ActivityRow =
  | {
      kind: 'screenshot';
      id: string;
      createdAt: Date;
      deletedAt: Date | null;
      flaggedAt: Date | null;
      filterSuspended: boolean;
      objectKey: string;
      width: number;
      height: number;
    }
  | {
      kind: 'keystrokeLine';
      id: string;
      createdAt: Date;
      deletedAt: Date | null;
      flaggedAt: Date | null;
      filterSuspended: boolean;
      appName: string;
      line: string;
      /** Issue 24: the alert the line raised; such a line is an entry of its own. */
      alert?: ActivityAlertFacts;
    };

/** Issue 24: the category and listed words of a typed line's alert. */
export interface ActivityAlertFacts {
  category: string;
  words: string[];
}

/** One display entry after coalescing: a screenshot, or a group of lines typed in one app. */
export type CoalescedActivity =
  | {
      kind: 'screenshot';
      id: string;
      ids: string[];
      createdAt: Date;
      deletedAt: Date | null;
      flagged: boolean;
      duringSuspension: boolean;
      objectKey: string;
      width: number;
      height: number;
    }
  | {
      kind: 'keystrokeLine';
      id: string;
      ids: string[];
      createdAt: Date;
      deletedAt: Date | null;
      flagged: boolean;
      duringSuspension: boolean;
      appName: string;
      line: string;
      alert?: ActivityAlertFacts;
    };

const sameInstant = (a: Date | null, b: Date | null): boolean =>
  a === null || b === null ? a === b : a.getTime() === b.getTime();

/** Newest first; ties broken by id so the order is stable. */
function compareNewestFirst(a: ActivityRow, b: ActivityRow): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * §7.3: merge screenshots and keystroke lines newest first; a keystroke line joins the previous entry
 * when that entry is a keystroke group with the same app name and the same deletedAt. The group keeps
 * the newest line's id, createdAt and flag, accumulates ids, and prepends the older text (so it reads
 * oldest → newest); it is duringSuspension if any member was. Screenshots never merge.
 * Issue 24: a line with an alert neither joins nor is joined, so its flag and alert are its own.
 */
export function coalesceActivity(rows: readonly ActivityRow[]): CoalescedActivity[] {
  const sorted = [...rows].sort(compareNewestFirst);
  const entries: CoalescedActivity[] = [];
  for (const row of sorted) {
    if (row.kind === 'screenshot') {
      entries.push({
        kind: 'screenshot',
        id: row.id,
        ids: [row.id],
        createdAt: row.createdAt,
        deletedAt: row.deletedAt,
        flagged: row.flaggedAt !== null,
        duringSuspension: row.filterSuspended,
        objectKey: row.objectKey,
        width: row.width,
        height: row.height,
      });
      continue;
    }
    const previous = entries[entries.length - 1];
    if (
      previous?.kind === 'keystrokeLine' &&
      previous.alert === undefined &&
      row.alert === undefined &&
      previous.appName === row.appName &&
      sameInstant(previous.deletedAt, row.deletedAt)
    ) {
      previous.ids.push(row.id);
      previous.line = `${row.line}\n${previous.line}`;
      previous.duringSuspension ||= row.filterSuspended;
      continue;
    }
    entries.push({
      kind: 'keystrokeLine',
      id: row.id,
      ids: [row.id],
      createdAt: row.createdAt,
      deletedAt: row.deletedAt,
      flagged: row.flaggedAt !== null,
      duringSuspension: row.filterSuspended,
      appName: row.appName,
      line: row.line,
      ...(row.alert ? { alert: row.alert } : {}),
    });
  }
  return entries;
}

/**
 * The local midnight (as an absolute instant) of the day holding `instant`, for a client whose
 * `getTimezoneOffset()` is `jsTimezoneOffsetMinutes` (minutes behind UTC: UTC−5 → 300). A fixed
 * offset, no DST rules (§7.4).
 */
export function localDayStart(instant: Date, jsTimezoneOffsetMinutes: number): Date {
  const offsetMs = jsTimezoneOffsetMinutes * MINUTE_MS;
  const localMs = instant.getTime() - offsetMs;
  const localMidnight = Math.floor(localMs / DAY_MS) * DAY_MS;
  return new Date(localMidnight + offsetMs);
}

/** The feed range of one local day, as the dashboard sends it: 00:00:00.000 → 23:59:59.999 local. */
export function localDayRange(
  dayStart: Date,
  jsTimezoneOffsetMinutes: number,
): { start: string; end: string } {
  const start = localDayStart(dayStart, jsTimezoneOffsetMinutes);
  return {
    start: start.toISOString(),
    end: new Date(start.getTime() + DAY_MS - 1).toISOString(),
  };
}

export interface ActivityDaySummary {
  /** Local midnight as an absolute instant. */
  date: Date;
  numTotal: number;
  numApproved: number;
  numFlagged: number;
  /** Issue 24: entries that are typed lines with an alert. */
  numAlerts: number;
}

/**
 * §7.4: bucket rows by local day, coalesce each day, count entries, reviewed entries and flagged
 * entries. Days newest first. The caller picks the rows (14-day window plus older flagged ones).
 */
export function summariseActivityDays(
  rows: readonly ActivityRow[],
  jsTimezoneOffsetMinutes: number,
): ActivityDaySummary[] {
  const byDay = new Map<number, ActivityRow[]>();
  for (const row of rows) {
    const day = localDayStart(row.createdAt, jsTimezoneOffsetMinutes).getTime();
    const bucket = byDay.get(day);
    if (bucket) bucket.push(row);
    else byDay.set(day, [row]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => b - a)
    .map(([day, dayRows]) => {
      const entries = coalesceActivity(dayRows);
      return {
        date: new Date(day),
        numTotal: entries.length,
        numApproved: entries.filter((entry) => entry.deletedAt !== null).length,
        numFlagged: entries.filter((entry) => entry.flagged).length,
        numAlerts: entries.filter((entry) => entry.kind === 'keystrokeLine' && entry.alert).length,
      };
    });
}

export type ActivityRangeCheck =
  | { ok: true; start: Date; end: Date }
  | { ok: false; reason: 'unparseable' | 'reversed' | 'tooWide' };

/** Wire-contract §3.3: parseable ISO dates, start ≤ end, at most 31 days wide. */
export function checkActivityRange(range: { start: string; end: string }): ActivityRangeCheck {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
  if (!iso.test(range.start) || !iso.test(range.end)) return { ok: false, reason: 'unparseable' };
  const start = new Date(range.start);
  const end = new Date(range.end);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) {
    return { ok: false, reason: 'unparseable' };
  }
  if (end.getTime() < start.getTime()) return { ok: false, reason: 'reversed' };
  if (end.getTime() - start.getTime() > MAX_ACTIVITY_RANGE_DAYS * DAY_MS) {
    return { ok: false, reason: 'tooWide' };
  }
  return { ok: true, start, end };
}

/** Range semantics: `start < createdAt ≤ end`. */
export function isInActivityRange(createdAt: Date, start: Date, end: Date): boolean {
  return createdAt.getTime() > start.getTime() && createdAt.getTime() <= end.getTime();
}

/**
 * §7.2: an item is hard-deleted when (reviewed ≥ 14 days ago OR created ≥ 21 days ago) AND
 * (not flagged OR flagged ≥ 60 days ago).
 */
export function isActivityDueForRemoval(
  item: { createdAt: Date; deletedAt: Date | null; flaggedAt: Date | null },
  now: Date,
): boolean {
  const age = (instant: Date) => now.getTime() - instant.getTime();
  const reviewedLongAgo =
    item.deletedAt !== null &&
    item.deletedAt.getTime() <= now.getTime() &&
    age(item.deletedAt) >= REVIEWED_RETENTION_DAYS * DAY_MS;
  const old = age(item.createdAt) >= UNREVIEWED_RETENTION_DAYS * DAY_MS;
  const unprotected =
    item.flaggedAt === null || age(item.flaggedAt) >= FLAG_PROTECTION_DAYS * DAY_MS;
  return (reviewedLongAgo || old) && unprotected;
}

/** The cut-off instants the retention job uses in its SQL (same rule as isActivityDueForRemoval). */
export function activityRetentionCutoffs(now: Date): {
  reviewedBefore: Date;
  createdBefore: Date;
  flaggedBefore: Date;
} {
  return {
    reviewedBefore: new Date(now.getTime() - REVIEWED_RETENTION_DAYS * DAY_MS),
    createdBefore: new Date(now.getTime() - UNREVIEWED_RETENTION_DAYS * DAY_MS),
    flaggedBefore: new Date(now.getTime() - FLAG_PROTECTION_DAYS * DAY_MS),
  };
}

/** The minimal shape the suspension grouping needs from a display item (wire or domain). */
export interface SuspensionGroupable {
  case?: 'screenshot' | 'keystrokeLine';
  kind?: 'screenshot' | 'keystrokeLine';
  createdAt: Date | string;
  duringSuspension: boolean;
}

export type SuspensionGrouped<T> = { type: 'item'; item: T } | { type: 'suspension'; items: T[] };

/**
 * Spec §4 'Activity': when showSuspensionActivity is on, activity during a filter suspension is grouped
 * and highlighted. Items are newest first. Suspension items next to each other form one group; a
 * keystroke line that was not typed during the suspension joins the group when the group's suspension
 * items follow it (are later) within 4 minutes. Screenshots outside a suspension never join.
 */
export function groupSuspensionActivity<T extends SuspensionGroupable>(
  items: readonly T[],
): SuspensionGrouped<T>[] {
  const time = (item: T) => new Date(item.createdAt).getTime();
  const isLine = (item: T) => (item.case ?? item.kind) === 'keystrokeLine';
  const out: SuspensionGrouped<T>[] = [];
  let group: { type: 'suspension'; items: T[]; oldestSuspensionMs: number } | null = null;
  for (const item of items) {
    if (item.duringSuspension) {
      if (group) {
        group.items.push(item);
        group.oldestSuspensionMs = time(item);
      } else {
        group = { type: 'suspension', items: [item], oldestSuspensionMs: time(item) };
        out.push(group);
      }
      continue;
    }
    if (
      group &&
      isLine(item) &&
      group.oldestSuspensionMs - time(item) <= SUSPENSION_GROUPING_WINDOW_MS &&
      group.oldestSuspensionMs >= time(item)
    ) {
      group.items.push(item);
      continue;
    }
    group = null;
    out.push({ type: 'item', item });
  }
  return out.map((entry) =>
    entry.type === 'suspension' ? { type: 'suspension', items: entry.items } : entry,
  );
}
