import type { BrowserScreenTime, BrowserUsedMinute } from '@keyward/contract/browser';
import type { ScreenTime, ScreenTimeUsage, WeeklyAllowance } from '@keyward/contract/shared';
import {
  type Allowance,
  hasAnyLimit,
  isReportableMinute,
  localDay,
  localDayStart,
  NO_LIMIT,
  nextLocalMidnight,
  pauseState,
  screenTimeToday,
  WEEKDAYS,
} from '@keyward/domain/screen-time';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { fromDbInt, fromDbJson, toDbTime } from '../db/values.ts';

// Issue 34: a child's screen time on the server: the settings the parent saves (children's
// screen_time_* and paused_* columns), the minutes the child's browsers report
// (screen_time_minutes, one row per browser and minute; a child's time counts DISTINCT minutes,
// so two browsers open at once count each minute once), and the grants of more time
// (more_time_requests accepted for the family's local day). The family's time zone is the one the
// dashboard reported (parents.time_zone, also the weekly report's); UTC until it has.

export interface ScreenTimeRow {
  id: string;
  screen_time_allowance: unknown;
  screen_time_exempt: unknown;
  paused_at: string | null;
  paused_until: string | null;
}

export function storedAllowance(value: unknown): Allowance {
  if (value === null || value === undefined) return NO_LIMIT;
  const stored = fromDbJson<Partial<Record<string, number | null>>>(value);
  const allowance = { ...NO_LIMIT };
  for (const day of WEEKDAYS) {
    const minutes = stored[day];
    allowance[day] = typeof minutes === 'number' ? minutes : null;
  }
  return allowance;
}

export function storedExempt(value: unknown): string[] {
  const stored = fromDbJson<unknown>(value);
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
}

export function familyTimeZone(stored: string | null | undefined): string {
  return stored || 'UTC';
}

export async function familyTimeZoneOf(db: Db, parentId: string): Promise<string> {
  const parent = await db
    .selectFrom('parents')
    .select('time_zone')
    .where('id', '=', parentId)
    .executeTakeFirst();
  return familyTimeZone(parent?.time_zone);
}

/** The settings as GetUser answers them. */
export function screenTimeSettings(child: ScreenTimeRow, timeZone: string, now: Date): ScreenTime {
  const pause = pauseState(
    child.paused_at ? new Date(child.paused_at) : null,
    child.paused_until ? new Date(child.paused_until) : null,
    now,
  );
  const allowance: WeeklyAllowance = storedAllowance(child.screen_time_allowance);
  return {
    allowance,
    exemptKeychainIds: storedExempt(child.screen_time_exempt),
    timeZone,
    ...(pause.paused ? { pause: pause.until ? { until: isoSeconds(pause.until) } : {} } : {}),
  };
}

export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Distinct minutes of the child in [from, to). */
export async function usedMinutesBetween(
  db: Db,
  childId: string,
  from: Date,
  to: Date,
): Promise<number> {
  const row = await db
    .selectFrom('screen_time_minutes')
    .select(sql<number | string>`count(distinct minute)`.as('n'))
    .where('child_id', '=', childId)
    .where('minute', '>=', toDbTime(from))
    .where('minute', '<', toDbTime(to))
    .executeTakeFirst();
  return fromDbInt(row?.n ?? 0);
}

/** Minutes granted for the family's local day `day` (YYYY-MM-DD). */
export async function grantedMinutesOn(db: Db, childId: string, day: string): Promise<number> {
  const row = await db
    .selectFrom('more_time_requests')
    .select(sql<number | string | null>`sum(granted_minutes)`.as('n'))
    .where('child_id', '=', childId)
    .where('day', '=', day)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return fromDbInt(row?.n ?? 0);
}

/** Today's allowance as a browser enforces it; undefined when no day has a limit. */
export async function browserScreenTime(
  db: Db,
  child: ScreenTimeRow,
  timeZone: string,
  now: Date,
): Promise<BrowserScreenTime | undefined> {
  const allowance = storedAllowance(child.screen_time_allowance);
  if (!hasAnyLimit(allowance)) return undefined;
  const day = localDay(now, timeZone);
  const [used, granted] = await Promise.all([
    usedMinutesBetween(
      db,
      child.id,
      localDayStart(now, timeZone),
      nextLocalMidnight(now, timeZone),
    ),
    grantedMinutesOn(db, child.id, day.date),
  ]);
  const today = screenTimeToday({
    allowance,
    timeZone,
    now,
    usedMinutes: used,
    grantedMinutes: granted,
  });
  return {
    allowedMinutes:
      today.allowanceMinutes === null ? null : today.allowanceMinutes + today.grantedMinutes,
    usedMinutes: today.usedMinutes,
    remainingMinutes: today.remainingMinutes,
    resetsAt: isoSeconds(today.resetsAt),
    exemptKeychainIds: storedExempt(child.screen_time_exempt),
  };
}

/**
 * Stores the minutes a browser reports. Budgets: a minute that has not begun yet, is older than a
 * week, or is before the browser was connected is dropped, and the primary key keeps one row per
 * browser and minute, so however often it reports, a browser has at most one row per minute that
 * has passed since it was connected. Returns how many were new.
 */
export async function recordUsedMinutes(
  db: Db,
  device: { computerUserId: string; childId: string; connectedAt: Date },
  minutes: readonly BrowserUsedMinute[],
  now: Date,
): Promise<number> {
  const rows = new Map<
    string,
    { computer_user_id: string; child_id: string; minute: string; site: string }
  >();
  for (const { minute, site } of minutes) {
    const bucket = new Date(minute);
    if (Number.isNaN(bucket.getTime())) continue;
    const at = bucket.toISOString();
    if (!isReportableMinute(at, now, device.connectedAt)) continue;
    if (rows.has(at)) continue;
    rows.set(at, {
      computer_user_id: device.computerUserId,
      child_id: device.childId,
      minute: toDbTime(bucket),
      site: site.toLowerCase().slice(0, 253),
    });
  }
  if (rows.size === 0) return 0;
  const values = [...rows.values()];
  let inserted = 0;
  // 200 rows per statement: well under either database's bound-parameter limit
  for (let i = 0; i < values.length; i += 200) {
    const result = await db
      .insertInto('screen_time_minutes')
      .values(values.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['computer_user_id', 'minute']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/** Today, each day of the last 7 (oldest first) and the week's top sites. */
export async function screenTimeUsage(
  db: Db,
  child: ScreenTimeRow,
  timeZone: string,
  now: Date,
): Promise<ScreenTimeUsage> {
  const allowance = storedAllowance(child.screen_time_allowance);
  // the starts of the last 7 local days, today last
  const starts: Date[] = [localDayStart(now, timeZone)];
  while (starts.length < 7) {
    const first = starts[0] as Date;
    starts.unshift(localDayStart(new Date(first.getTime() - 60_000), timeZone));
  }
  const weekStart = starts[0] as Date;
  const end = nextLocalMidnight(now, timeZone);
  const [minutes, grants, sites] = await Promise.all([
    db
      .selectFrom('screen_time_minutes')
      .select('minute')
      .distinct()
      .where('child_id', '=', child.id)
      .where('minute', '>=', toDbTime(weekStart))
      .where('minute', '<', toDbTime(end))
      .execute(),
    db
      .selectFrom('more_time_requests')
      .select(['day', sql<number | string | null>`sum(granted_minutes)`.as('n')])
      .where('child_id', '=', child.id)
      .where('status', '=', 'accepted')
      .groupBy('day')
      .execute(),
    db
      .selectFrom('screen_time_minutes')
      .select(['site', sql<number | string>`count(distinct minute)`.as('n')])
      .where('child_id', '=', child.id)
      .where('minute', '>=', toDbTime(weekStart))
      .where('minute', '<', toDbTime(end))
      .groupBy('site')
      .orderBy(sql`count(distinct minute)`, 'desc')
      .orderBy('site')
      .limit(10)
      .execute(),
  ]);
  const grantedOn = new Map(grants.map((row) => [row.day, fromDbInt(row.n ?? 0)]));
  const week = starts.map((start, index) => {
    const next = starts[index + 1] ?? end;
    const used = minutes.filter((row) => {
      const at = Date.parse(row.minute);
      return at >= start.getTime() && at < next.getTime();
    }).length;
    const day = localDay(start, timeZone);
    return {
      date: day.date,
      weekday: day.weekday,
      usedMinutes: used,
      allowanceMinutes: allowance[day.weekday],
      grantedMinutes: grantedOn.get(day.date) ?? 0,
    };
  });
  const todayRow = week[week.length - 1]!;
  const today = screenTimeToday({
    allowance,
    timeZone,
    now,
    usedMinutes: todayRow.usedMinutes,
    grantedMinutes: todayRow.grantedMinutes,
  });
  return {
    today: {
      ...todayRow,
      remainingMinutes: today.remainingMinutes,
      resetsAt: isoSeconds(today.resetsAt),
    },
    week,
    topSites: sites.map((row) => ({ site: row.site, minutes: fromDbInt(row.n) })),
  };
}
