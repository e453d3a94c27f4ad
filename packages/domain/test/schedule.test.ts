import type { PlainTime, PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  clampTime,
  DEFAULT_ACTIVE_SCHEDULE,
  DEFAULT_DOWNTIME,
  END_BEFORE_START_HINT,
  isKeychainActiveAt,
  isScheduleActiveAt,
  isTimeInWindow,
  type LocalDateParts,
  localDatePartsOf,
  toggleDay,
  validateScheduleWindow,
  type Weekday,
} from '../src/schedule.ts';

const t = (hour: number, minute = 0): PlainTime => ({ hour, minute });
const win = (start: PlainTime, end: PlainTime): PlainTimeWindow => ({ start, end });
const at = (weekday: Weekday, hour: number, minute = 0): LocalDateParts => ({
  weekday,
  hour,
  minute,
});
const noDays: RuleSchedule['days'] = {
  sunday: false,
  monday: false,
  tuesday: false,
  wednesday: false,
  thursday: false,
  friday: false,
  saturday: false,
};
const onDays = (...days: Weekday[]): RuleSchedule['days'] => ({
  ...noDays,
  ...Object.fromEntries(days.map((d) => [d, true])),
});

describe('defaults', () => {
  test('active schedule: all 7 days, 07:00 → 17:00', () => {
    expect(DEFAULT_ACTIVE_SCHEDULE).toEqual({
      mode: 'active',
      days: onDays('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'),
      window: win(t(7), t(17)),
    });
  });
  test('downtime: 21:00 → 05:00', () => {
    expect(DEFAULT_DOWNTIME).toEqual(win(t(21), t(5)));
  });
});

describe('toggleDay', () => {
  const weekdays: RuleSchedule = {
    ...DEFAULT_ACTIVE_SCHEDULE,
    days: onDays('monday', 'tuesday', 'wednesday', 'thursday', 'friday'),
  };
  const onlyMonday: RuleSchedule = { ...DEFAULT_ACTIVE_SCHEDULE, days: onDays('monday') };
  test.each<[string, RuleSchedule, Weekday, RuleSchedule['days']]>([
    [
      'unchecks a selected day',
      weekdays,
      'friday',
      onDays('monday', 'tuesday', 'wednesday', 'thursday'),
    ],
    [
      'checks an unselected day',
      weekdays,
      'saturday',
      onDays('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'),
    ],
    ['keeps the last selected day', onlyMonday, 'monday', onDays('monday')],
    ['adds to a single day', onlyMonday, 'sunday', onDays('monday', 'sunday')],
  ])('%s', (_name, schedule, day, days) => {
    expect(toggleDay(schedule, day).days).toEqual(days);
  });

  test('the last day returns the very same schedule', () => {
    expect(toggleDay(onlyMonday, 'monday')).toBe(onlyMonday);
  });
});

describe('clampTime', () => {
  test.each<[PlainTime, PlainTime]>([
    [t(7, 30), t(7, 30)],
    [t(24, 0), t(23, 0)],
    [t(99, 99), t(23, 59)],
    [t(-1, -5), t(0, 0)],
    [t(12.7, 30.2), t(12, 30)],
    [{ hour: Number.NaN, minute: 15 }, t(0, 15)],
    [t(23, 60), t(23, 59)],
  ])('%j → %j', (input, expected) => {
    expect(clampTime(input)).toEqual(expected);
  });
});

describe('validateScheduleWindow', () => {
  test.each<[PlainTimeWindow, string | null]>([
    [win(t(7), t(17)), null],
    [win(t(0), t(23, 59)), null],
    [win(t(9, 0), t(9, 1)), null],
    [win(t(9), t(9)), END_BEFORE_START_HINT],
    [win(t(17), t(7)), END_BEFORE_START_HINT],
    [win(t(9, 30), t(9, 15)), END_BEFORE_START_HINT],
  ])('%j → %j', (window, expected) => {
    expect(validateScheduleWindow(window)).toBe(expected);
  });
  test('the hint is the spec wording', () => {
    expect(END_BEFORE_START_HINT).toBe('End time must be after start time');
  });
});

describe('isTimeInWindow', () => {
  test.each<[PlainTimeWindow, PlainTime, boolean]>([
    [win(t(7), t(17)), t(7), true],
    [win(t(7), t(17)), t(12, 30), true],
    [win(t(7), t(17)), t(16, 59), true],
    [win(t(7), t(17)), t(17), false],
    [win(t(7), t(17)), t(6, 59), false],
    [DEFAULT_DOWNTIME, t(21), true],
    [DEFAULT_DOWNTIME, t(23, 59), true],
    [DEFAULT_DOWNTIME, t(0), true],
    [DEFAULT_DOWNTIME, t(4, 59), true],
    [DEFAULT_DOWNTIME, t(5), false],
    [DEFAULT_DOWNTIME, t(12), false],
    [DEFAULT_DOWNTIME, t(20, 59), false],
    [win(t(9), t(9)), t(9), false],
  ])('%j contains %j: %s', (window, time, expected) => {
    expect(isTimeInWindow(window, time)).toBe(expected);
  });
});

describe('isScheduleActiveAt', () => {
  const schoolDays: RuleSchedule = {
    mode: 'active',
    days: onDays('monday', 'tuesday', 'wednesday', 'thursday', 'friday'),
    window: win(t(8), t(15)),
  };
  const notOnSchoolDays: RuleSchedule = { ...schoolDays, mode: 'inactive' };
  const fridayNight: RuleSchedule = {
    mode: 'active',
    days: onDays('friday'),
    window: win(t(21), t(2)),
  };
  const notFridayNight: RuleSchedule = { ...fridayNight, mode: 'inactive' };

  test.each<[string, RuleSchedule, LocalDateParts, boolean]>([
    ['active mode, scheduled day, inside', schoolDays, at('monday', 9), true],
    ['active mode, scheduled day, before', schoolDays, at('monday', 7, 59), false],
    ['active mode, scheduled day, at end', schoolDays, at('friday', 15), false],
    ['active mode, other day, inside hours', schoolDays, at('saturday', 9), false],
    ['inactive mode, scheduled day, inside', notOnSchoolDays, at('monday', 9), false],
    ['inactive mode, scheduled day, outside', notOnSchoolDays, at('monday', 18), true],
    ['inactive mode, other day', notOnSchoolDays, at('sunday', 9), true],
    ['wrapped window, start day before midnight', fridayNight, at('friday', 22), true],
    [
      'wrapped window, after midnight belongs to the start day',
      fridayNight,
      at('saturday', 1, 30),
      true,
    ],
    ['wrapped window, after its end', fridayNight, at('saturday', 2), false],
    ['wrapped window, saturday evening is not friday', fridayNight, at('saturday', 22), false],
    ['wrapped window, friday early morning is thursday night', fridayNight, at('friday', 1), false],
    ['wrapped window, inactive mode after midnight', notFridayNight, at('saturday', 1), false],
    ['wrapped window, inactive mode outside', notFridayNight, at('saturday', 12), true],
    [
      'wrapped window over the week boundary',
      { ...fridayNight, days: onDays('saturday') },
      at('sunday', 0),
      true,
    ],
  ])('%s', (_name, schedule, parts, expected) => {
    expect(isScheduleActiveAt(schedule, parts)).toBe(expected);
  });

  test.each<[RuleSchedule | undefined, LocalDateParts, boolean]>([
    [undefined, at('monday', 3), true],
    [undefined, at('sunday', 23, 59), true],
    [schoolDays, at('tuesday', 10), true],
    [schoolDays, at('tuesday', 20), false],
  ])('isKeychainActiveAt(%j, %j) = %s', (schedule, parts, expected) => {
    expect(isKeychainActiveAt(schedule, parts)).toBe(expected);
  });
});

describe('localDatePartsOf', () => {
  test.each<[string, number, LocalDateParts]>([
    ['2024-03-04T12:30:00.000Z', 0, at('monday', 12, 30)], // a Monday
    ['2024-03-04T03:15:00.000Z', 300, at('sunday', 22, 15)], // US Eastern winter
    ['2024-03-04T23:00:00.000Z', -120, at('tuesday', 1, 0)], // UTC+2
    ['2024-03-09T23:59:00.000Z', -60, at('sunday', 0, 59)],
    ['2024-03-10T12:00:00.000Z', 330 * -1, at('sunday', 17, 30)], // India
  ])('%s at offset %i → %j', (iso, offset, expected) => {
    expect(localDatePartsOf(new Date(iso), offset)).toEqual(expected);
  });

  test('without an offset it uses the runtime time zone', () => {
    const date = new Date(2024, 2, 6, 8, 45); // local wednesday 08:45
    expect(localDatePartsOf(date)).toEqual(at('wednesday', 8, 45));
  });
});
