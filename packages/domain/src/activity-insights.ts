import { type ActivityRow, coalesceActivity, localDayStart } from './activity.ts';

// Issue 24: one child's week at a glance (ChildActivityInsights): items per local day and per local
// hour, counted as the review counts them (coalesced entries), with the alerted and flagged ones.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const INSIGHT_DAYS = 7;
export const TOP_LIST_LENGTH = 5;

export interface InsightDay {
  /** Local midnight as an absolute instant. */
  date: Date;
  numItems: number;
  numAlerts: number;
  numFlagged: number;
}

export interface ActivityWeek {
  weekStart: Date;
  /** INSIGHT_DAYS days, oldest first, empty days included. */
  days: InsightDay[];
  /** 24 counts by local hour. */
  hours: number[];
  numItems: number;
  numAlerts: number;
  numFlagged: number;
  alertsByCategory: { category: string; numAlerts: number }[];
}

/** Local midnight of the first of the INSIGHT_DAYS days that end today. */
export function insightWeekStart(now: Date, jsTimezoneOffsetMinutes: number): Date {
  const today = localDayStart(now, jsTimezoneOffsetMinutes);
  return new Date(today.getTime() - (INSIGHT_DAYS - 1) * DAY_MS);
}

/** The local hour (0–23) of an instant, for a client `jsTimezoneOffsetMinutes` behind UTC. */
export function localHour(instant: Date, jsTimezoneOffsetMinutes: number): number {
  const local = instant.getTime() - jsTimezoneOffsetMinutes * 60 * 1000;
  return Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
}

/** Rows outside the week are left out; reviewed rows count (the week is what happened). */
export function summariseActivityWeek(
  rows: readonly ActivityRow[],
  now: Date,
  jsTimezoneOffsetMinutes: number,
): ActivityWeek {
  const weekStart = insightWeekStart(now, jsTimezoneOffsetMinutes);
  const weekEnd = weekStart.getTime() + INSIGHT_DAYS * DAY_MS;
  const days: InsightDay[] = Array.from({ length: INSIGHT_DAYS }, (_, i) => ({
    date: new Date(weekStart.getTime() + i * DAY_MS),
    numItems: 0,
    numAlerts: 0,
    numFlagged: 0,
  }));
  const byDay: ActivityRow[][] = days.map(() => []);
  for (const row of rows) {
    const time = row.createdAt.getTime();
    if (time < weekStart.getTime() || time >= weekEnd) continue;
    // whole days from weekStart (a fixed offset: every day is 24 hours)
    byDay[Math.floor((time - weekStart.getTime()) / DAY_MS)]?.push(row);
  }
  const hours = Array.from({ length: 24 }, () => 0);
  const alerts = new Map<string, number>();
  byDay.forEach((dayRows, i) => {
    const day = days[i] as InsightDay;
    for (const entry of coalesceActivity(dayRows)) {
      day.numItems += 1;
      if (entry.flagged) day.numFlagged += 1;
      if (entry.kind === 'keystrokeLine' && entry.alert) {
        day.numAlerts += 1;
        alerts.set(entry.alert.category, (alerts.get(entry.alert.category) ?? 0) + 1);
      }
      const hour = localHour(entry.createdAt, jsTimezoneOffsetMinutes);
      hours[hour] = (hours[hour] ?? 0) + 1;
    }
  });
  const sum = (pick: (day: InsightDay) => number) => days.reduce((n, day) => n + pick(day), 0);
  return {
    weekStart,
    days,
    hours,
    numItems: sum((day) => day.numItems),
    numAlerts: sum((day) => day.numAlerts),
    numFlagged: sum((day) => day.numFlagged),
    alertsByCategory: [...alerts.entries()]
      .map(([category, numAlerts]) => ({ category, numAlerts }))
      .sort((a, b) => b.numAlerts - a.numAlerts || a.category.localeCompare(b.category)),
  };
}

/** The most frequent values, most first (ties by name), at most `length`. */
export function topCounts(values: readonly string[], length = TOP_LIST_LENGTH) {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
    .slice(0, length)
    .map(([value, count]) => ({ value, count }));
}
