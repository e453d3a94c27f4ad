import type { BrowserKeychain } from '@keyward/contract/browser';
import { HostMatcher, hostKeyPlan } from './host-keys.ts';

// Issue 34: screen time. A daily allowance per child and day of the week, in the family's time
// zone, resetting at local midnight; minutes counted by Keyward for Chrome in one-minute buckets
// (a minute used on two browsers at once is one minute); grants of more time for today; keychains
// marked "doesn't use up time" whose sites never count; "Pause internet" for a while or until the
// parent resumes. Pure functions: the server, the extension and the dashboard share them.

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Minutes allowed each day of the week; null: no limit that day. */
export type Allowance = Record<Weekday, number | null>;

export const NO_LIMIT: Allowance = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

export const MINUTES_IN_A_DAY = 24 * 60;
/** What the child may ask for on the Time's up page. */
export const MORE_TIME_CHOICES = [15, 30, 60] as const;
/** The extension warns this many minutes before the allowance runs out. */
export const WARN_MINUTES_BEFORE = 5;
/** Reported minutes older than this are refused (the extension keeps them offline a week). */
export const MAX_REPORT_AGE_DAYS = 7;
/** Pause for 15 minutes, an hour, or until the parent resumes (null). */
export const PAUSE_CHOICES = [15, 60, null] as const;
/** The longest a timed pause may last. */
export const MAX_PAUSE_MINUTES = 7 * MINUTES_IN_A_DAY;

const MINUTE_MS = 60_000;

/** Whether any day has a limit. */
export function hasAnyLimit(allowance: Allowance): boolean {
  return WEEKDAYS.some((day) => allowance[day] !== null);
}

/** A parent-readable problem with an allowance, or null when it can be saved. */
export function allowanceProblem(allowance: Allowance): string | null {
  for (const day of WEEKDAYS) {
    const minutes = allowance[day];
    if (minutes === null) continue;
    if (!Number.isInteger(minutes) || minutes < 0) {
      return `The time allowed on ${dayName(day)} must be a whole number of minutes.`;
    }
    if (minutes > MINUTES_IN_A_DAY) {
      return `The time allowed on ${dayName(day)} can be at most 24 hours.`;
    }
  }
  return null;
}

export function dayName(day: Weekday): string {
  return day.charAt(0).toUpperCase() + day.slice(1);
}

/** An IANA time zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'long',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

export interface LocalDay {
  /** YYYY-MM-DD in the time zone */
  date: string;
  weekday: Weekday;
}

/** The calendar day of an instant in a time zone (an unknown zone is read as UTC). */
export function localDay(at: Date, timeZone: string): LocalDay {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: String(parts.weekday).toLowerCase() as Weekday,
  };
}

/**
 * The first instant after `at` whose local date is another day: local midnight, or the first
 * instant of the next day where a daylight-saving change skips midnight. Found by bisection over
 * whole minutes of the next 48 hours (offsets change on whole minutes), so there is no offset
 * arithmetic to get wrong across a change.
 */
export function nextLocalMidnight(at: Date, timeZone: string): Date {
  const today = localDay(at, timeZone).date;
  const isToday = (minute: number) =>
    localDay(new Date(minute * MINUTE_MS), timeZone).date === today;
  let low = Math.floor(at.getTime() / MINUTE_MS); // today
  let high = low + 48 * 60; // not today
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (isToday(middle)) low = middle;
    else high = middle;
  }
  return new Date(high * MINUTE_MS);
}

/** The first instant of the local day containing `at`. */
export function localDayStart(at: Date, timeZone: string): Date {
  const today = localDay(at, timeZone).date;
  const isToday = (minute: number) =>
    localDay(new Date(minute * MINUTE_MS), timeZone).date === today;
  let high = Math.floor(at.getTime() / MINUTE_MS); // today
  let low = high - 48 * 60; // not today
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (isToday(middle)) high = middle;
    else low = middle;
  }
  return new Date(high * MINUTE_MS);
}

/** The one-minute bucket an instant falls in, as `YYYY-MM-DDTHH:MM:00.000Z`. */
export function minuteBucket(at: Date): string {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS).toISOString();
}

/** Whether a reported bucket is a whole minute that has already ended, within the report window. */
export function isReportableMinute(bucket: string, now: Date, notBefore?: Date): boolean {
  const at = Date.parse(bucket);
  if (Number.isNaN(at) || at % MINUTE_MS !== 0) return false;
  // the minute must have begun: a browser cannot report time that has not passed yet
  if (at > now.getTime()) return false;
  if (at < now.getTime() - MAX_REPORT_AGE_DAYS * MINUTES_IN_A_DAY * MINUTE_MS) return false;
  // nor time before it was connected
  if (notBefore && at + MINUTE_MS <= notBefore.getTime()) return false;
  return true;
}

/** Minutes used from buckets reported by several browsers: each minute counts once. */
export function usedMinutes(
  reports: Iterable<Iterable<string>>,
  window?: { from: Date; to: Date },
): number {
  const minutes = new Set<number>();
  for (const report of reports) {
    for (const bucket of report) {
      const at = Date.parse(bucket);
      if (Number.isNaN(at)) continue;
      if (window && (at < window.from.getTime() || at >= window.to.getTime())) continue;
      minutes.add(Math.floor(at / MINUTE_MS));
    }
  }
  return minutes.size;
}

/** Sites of the keychains marked "doesn't use up time": their time never counts. */
export function exemptHostMatcher(
  keychains: readonly BrowserKeychain[],
  exemptKeychainIds: readonly string[],
): HostMatcher {
  const exempt = new Set(exemptKeychainIds.map((id) => id.toLowerCase()));
  const matcher = new HostMatcher();
  for (const keychain of keychains) {
    if (!exempt.has(keychain.id.toLowerCase())) continue;
    for (const key of keychain.keys) {
      const until = key.expiration ? Date.parse(key.expiration) : Number.POSITIVE_INFINITY;
      matcher.add(hostKeyPlan(key.key), until);
    }
  }
  return matcher;
}

/** Whether time on `host` uses up the allowance (not an exempt keychain's site). */
export function isCountedHost(host: string, exempt: HostMatcher, now: Date): boolean {
  if (host === '') return false;
  return !exempt.matches(host.toLowerCase().replace(/\.$/, ''), now.getTime());
}

export interface ScreenTimeToday {
  date: string;
  weekday: Weekday;
  /** today's allowance before grants; null: no limit today */
  allowanceMinutes: number | null;
  /** more time granted today */
  grantedMinutes: number;
  usedMinutes: number;
  /** null: no limit today */
  remainingMinutes: number | null;
  timesUp: boolean;
  /** within WARN_MINUTES_BEFORE of the end */
  warning: boolean;
  /** local midnight: the allowance starts again */
  resetsAt: Date;
}

/** Today's allowance, what is used and what is left, in the family's time zone. */
export function screenTimeToday(input: {
  allowance: Allowance;
  timeZone: string;
  now: Date;
  usedMinutes: number;
  grantedMinutes: number;
}): ScreenTimeToday {
  const day = localDay(input.now, input.timeZone);
  const allowanceMinutes = input.allowance[day.weekday];
  const remainingMinutes =
    allowanceMinutes === null
      ? null
      : Math.max(0, allowanceMinutes + input.grantedMinutes - input.usedMinutes);
  return {
    date: day.date,
    weekday: day.weekday,
    allowanceMinutes,
    grantedMinutes: input.grantedMinutes,
    usedMinutes: input.usedMinutes,
    remainingMinutes,
    timesUp: remainingMinutes === 0,
    warning:
      remainingMinutes !== null && remainingMinutes > 0 && remainingMinutes <= WARN_MINUTES_BEFORE,
    resetsAt: nextLocalMidnight(input.now, input.timeZone),
  };
}

export type PauseState = { paused: false } | { paused: true; until: Date | null };

/** A pause started at `pausedAt` (null: none) until `pausedUntil` (null: until resumed). */
export function pauseState(pausedAt: Date | null, pausedUntil: Date | null, now: Date): PauseState {
  if (pausedAt === null) return { paused: false };
  if (pausedUntil !== null && pausedUntil.getTime() <= now.getTime()) return { paused: false };
  return { paused: true, until: pausedUntil };
}

/** When a pause of `minutes` (null: until resumed) started now ends; refuses odd lengths. */
export function pauseEnd(minutes: number | null, now: Date): Date | null {
  if (minutes === null) return null;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_PAUSE_MINUTES) {
    throw new RangeError(`pause of ${minutes} minutes`);
  }
  return new Date(now.getTime() + minutes * MINUTE_MS);
}

/** '45 minutes', '1 hour', '2 hours 30 minutes'. */
export function minutesInWords(total: number): string {
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'hour' : 'hours'}`);
  if (minutes > 0 || hours === 0) parts.push(`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}
