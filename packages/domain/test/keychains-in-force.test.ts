import type { RuleSchedule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { describeKeychainInForce, keychainInForce } from '../src/keychains-in-force';

const ALL: RuleSchedule['days'] = {
  sunday: true,
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: true,
};
const WEEKDAYS_ONLY = { ...ALL, saturday: false, sunday: false };
const schedule = (
  mode: RuleSchedule['mode'],
  start: number,
  end: number,
  days = ALL,
): RuleSchedule => ({
  mode,
  days,
  window: { start: { hour: start, minute: 0 }, end: { hour: end, minute: 0 } },
});

// 2026-11-26 is a Thursday; UTC throughout (offset 0)
const at = (iso: string) => new Date(iso);

describe('keychainInForce', () => {
  test.each<[string, RuleSchedule | undefined, string, string]>([
    ['no schedule', undefined, '2026-11-26T10:00:00Z', 'Always'],
    ['inside an active window', schedule('active', 7, 17), '2026-11-26T10:00:00Z', 'Until 17:00'],
    ['before an active window', schedule('active', 7, 17), '2026-11-26T06:30:00Z', 'From 07:00'],
    ['after it: tomorrow', schedule('active', 7, 17), '2026-11-26T18:00:00Z', 'From Fri 07:00'],
    [
      'friday evening, weekdays only',
      schedule('active', 7, 17, WEEKDAYS_ONLY),
      '2026-11-27T18:00:00Z',
      'From Mon 07:00',
    ],
    [
      'inactive window: in force outside it',
      schedule('inactive', 21, 5),
      '2026-11-26T10:00:00Z',
      'Until 21:00',
    ],
    [
      'inactive window over midnight',
      schedule('inactive', 21, 5),
      '2026-11-26T23:00:00Z',
      'From Fri 05:00',
    ],
  ])('%s', (_name, rule, now, expected) => {
    const state = keychainInForce(rule, at(now), 0);
    expect(describeKeychainInForce(state, at(now), 0)).toBe(expected);
  });

  test('the change is on the minute', () => {
    const state = keychainInForce(schedule('active', 7, 17), at('2026-11-26T16:59:30Z'), 0);
    expect(state).toEqual({ case: 'now', until: at('2026-11-26T17:00:00Z') });
  });
});
