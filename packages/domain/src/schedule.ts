import type { PlainTime, PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';

export type Weekday = keyof RuleSchedule['days'];

/** Indexed like Date#getDay(): 0 = sunday. */
export const WEEKDAYS: readonly Weekday[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

const ALL_DAYS: RuleSchedule['days'] = {
  sunday: true,
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: true,
};

export const DEFAULT_ACTIVE_SCHEDULE: RuleSchedule = {
  mode: 'active',
  days: ALL_DAYS,
  window: { start: { hour: 7, minute: 0 }, end: { hour: 17, minute: 0 } },
};

export const DEFAULT_DOWNTIME: PlainTimeWindow = {
  start: { hour: 21, minute: 0 },
  end: { hour: 5, minute: 0 },
};

export const END_BEFORE_START_HINT = 'End time must be after start time';

/** The last selected day cannot be unchecked: the schedule comes back unchanged. */
export function toggleDay(schedule: RuleSchedule, day: Weekday): RuleSchedule {
  const isLastSelectedDay =
    schedule.days[day] && WEEKDAYS.filter((d) => schedule.days[d]).length === 1;
  if (isLastSelectedDay) return schedule;
  return { ...schedule, days: { ...schedule.days, [day]: !schedule.days[day] } };
}

function clampInteger(value: number, max: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(max, Math.max(0, Math.trunc(value)));
}

export function clampTime(time: PlainTime): PlainTime {
  return { hour: clampInteger(time.hour, 23), minute: clampInteger(time.minute, 59) };
}

function minutesOf(time: PlainTime): number {
  return time.hour * 60 + time.minute;
}

/** Keychain and blocked-app schedules must end after they start. Downtime may wrap midnight. */
export function validateScheduleWindow(window: PlainTimeWindow): string | null {
  return minutesOf(window.end) > minutesOf(window.start) ? null : END_BEFORE_START_HINT;
}

/**
 * Start inclusive, end exclusive. A window whose end is before its start wraps midnight;
 * start = end is an empty window.
 */
export function isTimeInWindow(window: PlainTimeWindow, time: PlainTime): boolean {
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  const at = minutesOf(time);
  if (start <= end) return at >= start && at < end;
  return at >= start || at < end;
}

export interface LocalDateParts {
  weekday: Weekday;
  hour: number;
  minute: number;
}

/**
 * Wall-clock parts of `date`. `timeZoneOffsetMinutes` follows Date#getTimezoneOffset (UTC minus local,
 * e.g. 300 for US Eastern winter); without it the runtime's own time zone is used.
 */
export function localDatePartsOf(date: Date, timeZoneOffsetMinutes?: number): LocalDateParts {
  if (timeZoneOffsetMinutes === undefined) {
    return {
      weekday: WEEKDAYS[date.getDay()] ?? 'sunday',
      hour: date.getHours(),
      minute: date.getMinutes(),
    };
  }
  const shifted = new Date(date.getTime() - timeZoneOffsetMinutes * 60_000);
  return {
    weekday: WEEKDAYS[shifted.getUTCDay()] ?? 'sunday',
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

function dayBefore(day: Weekday): Weekday {
  return WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7] ?? 'saturday';
}

/**
 * Whether `at` falls inside one of the schedule's windows. The part of a window after midnight
 * belongs to the day the window started: friday 21:00 → 05:00 covers saturday 02:00.
 */
export function isInScheduledWindow(schedule: RuleSchedule, at: LocalDateParts): boolean {
  const start = minutesOf(schedule.window.start);
  const end = minutesOf(schedule.window.end);
  const time = { hour: at.hour, minute: at.minute };
  if (!isTimeInWindow(schedule.window, time)) return false;
  const wrapsMidnight = end < start;
  const startedYesterday = wrapsMidnight && minutesOf(time) < end;
  return schedule.days[startedYesterday ? dayBefore(at.weekday) : at.weekday];
}

/** mode 'active': on inside the scheduled windows, off outside; mode 'inactive': the opposite. */
export function isScheduleActiveAt(schedule: RuleSchedule, at: LocalDateParts): boolean {
  const inside = isInScheduledWindow(schedule, at);
  return schedule.mode === 'active' ? inside : !inside;
}

/** A keychain assigned without a schedule is always active. */
export function isKeychainActiveAt(
  schedule: RuleSchedule | undefined,
  at: LocalDateParts,
): boolean {
  return schedule === undefined || isScheduleActiveAt(schedule, at);
}
