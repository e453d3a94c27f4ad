import type { RuleSchedule } from '@keyward/contract/shared';
import { isKeychainActiveAt, localDatePartsOf, WEEKDAYS } from './schedule';

// Issue 20: the child's page says which keychains are in force now, and until when. A schedule
// repeats every week, so the next change (if any) is within 7 days; minutes are its resolution.

const MINUTE_MS = 60_000;
const WEEK_MINUTES = 7 * 24 * 60;

export type KeychainInForce =
  /** no schedule: in force all the time */
  | { case: 'always' }
  /** in force now, until `until` (undefined: the schedule never turns it off) */
  | { case: 'now'; until?: Date }
  /** not in force now; from `from` (undefined: the schedule never turns it on) */
  | { case: 'later'; from?: Date };

/**
 * Whether a keychain assigned with `schedule` is in force at `now`, and when that next changes.
 * `timeZoneOffsetMinutes` follows Date#getTimezoneOffset; without it the runtime's zone is used.
 */
export function keychainInForce(
  schedule: RuleSchedule | undefined,
  now: Date,
  timeZoneOffsetMinutes?: number,
): KeychainInForce {
  if (schedule === undefined) return { case: 'always' };
  const isActiveAt = (at: Date) =>
    isKeychainActiveAt(schedule, localDatePartsOf(at, timeZoneOffsetMinutes));
  const isActiveNow = isActiveAt(now);
  const startOfMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  for (let minute = 1; minute <= WEEK_MINUTES; minute++) {
    const at = new Date(startOfMinute + minute * MINUTE_MS);
    if (isActiveAt(at) !== isActiveNow) {
      return isActiveNow ? { case: 'now', until: at } : { case: 'later', from: at };
    }
  }
  return isActiveNow ? { case: 'now' } : { case: 'later' };
}

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'Always', 'Until 17:00', 'Until Mon 07:00', 'From 07:00', 'Not in force'. */
export function describeKeychainInForce(
  state: KeychainInForce,
  now: Date,
  timeZoneOffsetMinutes?: number,
): string {
  const when = (at: Date) => {
    const local = localDatePartsOf(at, timeZoneOffsetMinutes);
    const today = localDatePartsOf(now, timeZoneOffsetMinutes);
    const time = `${pad(local.hour)}:${pad(local.minute)}`;
    const isWithinADay = at.getTime() - now.getTime() < 24 * 60 * MINUTE_MS;
    return local.weekday === today.weekday && isWithinADay
      ? time
      : `${DAY_NAMES[WEEKDAYS.indexOf(local.weekday)]} ${time}`;
  };
  switch (state.case) {
    case 'always':
      return 'Always';
    case 'now':
      return state.until ? `Until ${when(state.until)}` : 'Always';
    case 'later':
      return state.from ? `From ${when(state.from)}` : 'Not in force';
  }
}
