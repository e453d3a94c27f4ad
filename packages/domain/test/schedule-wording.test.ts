import type { RuleSchedule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACTIVE_SCHEDULE } from '../src/schedule';
import { describeSchedule, describeScheduleDays, formatPlainTime } from '../src/schedule-wording';

const none: RuleSchedule['days'] = {
  sunday: false,
  monday: false,
  tuesday: false,
  wednesday: false,
  thursday: false,
  friday: false,
  saturday: false,
};
const days = (...on: Array<keyof RuleSchedule['days']>) => ({
  ...none,
  ...Object.fromEntries(on.map((day) => [day, true])),
});

describe('describeScheduleDays', () => {
  test.each([
    [DEFAULT_ACTIVE_SCHEDULE.days, 'every day'],
    [days('monday', 'tuesday', 'wednesday', 'thursday', 'friday'), 'weekdays'],
    [days('saturday', 'sunday'), 'weekends'],
    [days('sunday', 'monday', 'wednesday', 'friday'), 'Mon, Wed, Fri, Sun'],
    [days('saturday'), 'Sat'],
    [
      days('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'),
      'Mon, Tue, Wed, Thu, Fri, Sat',
    ],
  ])('%o → %s', (input, expected) => {
    expect(describeScheduleDays(input)).toBe(expected);
  });
});

describe('describeSchedule', () => {
  test.each<[RuleSchedule, string]>([
    [DEFAULT_ACTIVE_SCHEDULE, 'Active 07:00–17:00, every day'],
    [
      {
        mode: 'inactive',
        days: days('monday', 'tuesday', 'wednesday', 'thursday', 'friday'),
        window: { start: { hour: 9, minute: 5 }, end: { hour: 15, minute: 30 } },
      },
      'Inactive 09:05–15:30, weekdays',
    ],
    [
      {
        mode: 'active',
        days: days('saturday', 'sunday'),
        window: { start: { hour: 0, minute: 0 }, end: { hour: 23, minute: 59 } },
      },
      'Active 00:00–23:59, weekends',
    ],
  ])('%o → %s', (schedule, expected) => {
    expect(describeSchedule(schedule)).toBe(expected);
  });

  test.each([
    [{ hour: 7, minute: 0 }, '07:00'],
    [{ hour: 23, minute: 59 }, '23:59'],
    [{ hour: 12, minute: 5 }, '12:05'],
  ])('formatPlainTime %o → %s', (time, expected) => {
    expect(formatPlainTime(time)).toBe(expected);
  });
});
