import { describe, expect, test } from 'vitest';
import { greeting, pluralise, timeAgo } from '../src/wording.ts';

describe('greeting', () => {
  test.each<[number, string]>([
    [0, 'Good morning'],
    [11, 'Good morning'],
    [12, 'Good afternoon'],
    [16, 'Good afternoon'],
    [17, 'Good evening'],
    [23, 'Good evening'],
  ])('%i h → %j', (hour, expected) => {
    expect(greeting(hour)).toBe(expected);
  });
});

describe('pluralise', () => {
  test.each<[number, string, string | undefined, string]>([
    [0, 'day', undefined, '0 days'],
    [1, 'day', undefined, '1 day'],
    [2, 'day', undefined, '2 days'],
    [1, 'child', 'children', '1 child'],
    [3, 'child', 'children', '3 children'],
  ])('%i %s → %j', (count, singular, plural, expected) => {
    expect(pluralise(count, singular, plural)).toBe(expected);
  });
});

describe('timeAgo', () => {
  const now = new Date('2024-03-04T12:00:00.000Z');
  const before = (ms: number) => new Date(now.getTime() - ms);
  const s = 1000;
  const min = 60 * s;
  const h = 60 * min;
  const d = 24 * h;
  test.each<[Date | string, string]>([
    [now, 'just now'],
    [before(999), 'just now'],
    [before(1 * s), '1 second ago'],
    [before(45 * s), '45 seconds ago'],
    [before(60 * s), '1 minute ago'],
    [before(59 * min + 59 * s), '59 minutes ago'],
    [before(2 * h), '2 hours ago'],
    [before(23 * h), '23 hours ago'],
    [before(1 * d), '1 day ago'],
    [before(29 * d), '29 days ago'],
    [before(30 * d), '1 month ago'],
    [before(364 * d), '12 months ago'],
    [before(365 * d), '1 year ago'],
    [before(3 * 365 * d), '3 years ago'],
    ['2024-03-04T11:55:00.000Z', '5 minutes ago'],
    [new Date(now.getTime() + 2 * d), 'in 2 days'],
  ])('%j → %j', (date, expected) => {
    expect(timeAgo(date, now)).toBe(expected);
  });
});
