import type { ActivityRange } from '@keyward/contract/shared';

// A day of activity is a local calendar day in the parent's browser. Its URL form is YYYY-MM-DD
// (/children/:userId/activity/2026-11-23); the feeds ask for it as a range of toISOString()
// values from the local 00:00:00.000 to 23:59:59.999 (wire-contract §3.3).

export type CalendarDay = { year: number; month: number; day: number };

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The local calendar day of an instant, e.g. a DaySummary's date (local midnight). */
export function toUrlDate(date: Date | string): string {
  const local = typeof date === 'string' ? new Date(date) : date;
  return `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/** YYYY-MM-DD of a real calendar date, else null. */
export function parseUrlDate(urlDate: string): CalendarDay | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(urlDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) {
    return null;
  }
  return { year, month, day };
}

function localDate({ year, month, day }: CalendarDay, hours = 0, ms = 0): Date {
  const date = new Date(year, month - 1, day, 0, 0, 0, 0);
  date.setHours(hours, 0, 0, ms);
  return date;
}

/** The feed range of a URL day, or null for a malformed date. */
export function dayRange(urlDate: string): ActivityRange | null {
  const day = parseUrlDate(urlDate);
  if (!day) return null;
  const start = localDate(day);
  const end = new Date(localDate(day));
  end.setHours(23, 59, 59, 999);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** 'Today', 'Yesterday', else e.g. 'Monday, November 16' (with the year when not this year). */
export function dayLabel(urlDate: string, now: Date): string {
  const day = parseUrlDate(urlDate);
  if (!day) return urlDate;
  if (urlDate === toUrlDate(now)) return 'Today';
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (urlDate === toUrlDate(yesterday)) return 'Yesterday';
  const date = localDate(day, 12);
  return date.toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    ...(day.year === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

// One formatter for every item: creating one per call is slow on a 5,000-item day.
const itemTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** An item's date and time, e.g. 'Nov 23, 2026, 10:42 AM'. */
export function itemTimeLabel(createdAt: string): string {
  return itemTimeFormat.format(new Date(createdAt));
}
