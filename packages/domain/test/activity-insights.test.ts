import { describe, expect, test } from 'vitest';
import type { ActivityRow } from '../src/activity.ts';
import {
  insightWeekStart,
  localHour,
  summariseActivityWeek,
  topCounts,
} from '../src/activity-insights.ts';

const line = (
  id: string,
  createdAt: string,
  appName: string,
  extra: Partial<{ flagged: boolean; alert: string; deletedAt: string }> = {},
): ActivityRow => ({
  kind: 'keystrokeLine',
  id,
  createdAt: new Date(createdAt),
  deletedAt: extra.deletedAt ? new Date(extra.deletedAt) : null,
  flaggedAt: extra.flagged || extra.alert ? new Date(createdAt) : null,
  filterSuspended: false,
  appName,
  line: `line ${id}`,
  ...(extra.alert ? { alert: { category: extra.alert, words: ['w'] } } : {}),
});

const shot = (id: string, createdAt: string, flagged = false): ActivityRow => ({
  kind: 'screenshot',
  id,
  createdAt: new Date(createdAt),
  deletedAt: null,
  flaggedAt: flagged ? new Date(createdAt) : null,
  filterSuspended: false,
  objectKey: `k/${id}`,
  width: 1,
  height: 1,
});

// Wednesday 2024-03-13 15:00 UTC; the parent is in UTC−5 (offset 300)
const now = new Date('2024-03-13T15:00:00Z');

describe('insightWeekStart and localHour', () => {
  test.each<[number, string]>([
    [0, '2024-03-07T00:00:00.000Z'],
    [300, '2024-03-07T05:00:00.000Z'],
    [-120, '2024-03-06T22:00:00.000Z'],
  ])('offset %i → %s', (offset, expected) => {
    expect(insightWeekStart(now, offset).toISOString()).toBe(expected);
  });
  test.each<[string, number, number]>([
    ['2024-03-13T15:00:00Z', 0, 15],
    ['2024-03-13T15:00:00Z', 300, 10],
    ['2024-03-13T02:30:00Z', 300, 21],
    ['2024-03-13T23:30:00Z', -120, 1],
  ])('%s at offset %i is hour %i', (iso, offset, hour) => {
    expect(localHour(new Date(iso), offset)).toBe(hour);
  });
});

describe('summariseActivityWeek', () => {
  test('an empty week has 7 empty days and 24 empty hours', () => {
    const week = summariseActivityWeek([], now, 300);
    expect(week.days).toHaveLength(7);
    expect(week.days.every((day) => day.numItems === 0)).toBe(true);
    expect(week.hours).toEqual(Array.from({ length: 24 }, () => 0));
    expect(week.numItems).toBe(0);
  });

  test('counts coalesced entries per local day and hour, alerts per category', () => {
    const rows = [
      // today, local 10:00 and 10:01: two lines of one app coalesce into one entry
      line('a', '2024-03-13T15:00:00Z', 'Messages'),
      line('b', '2024-03-13T15:01:00Z', 'Messages'),
      // an alerted line stands alone
      line('c', '2024-03-13T15:02:00Z', 'Messages', { alert: 'selfHarm' }),
      shot('d', '2024-03-13T15:03:00Z', true),
      // yesterday local 21:30 (02:30 UTC today)
      line('e', '2024-03-13T02:30:00Z', 'Discord', { alert: 'bullying' }),
      // first day of the week, local midnight exactly
      line('f', '2024-03-07T05:00:00Z', 'Notes', { deletedAt: '2024-03-08T00:00:00Z' }),
      // before the week and after now's day: left out
      line('g', '2024-03-07T04:59:59Z', 'Notes'),
      line('h', '2024-03-14T05:00:00Z', 'Notes'),
    ];
    const week = summariseActivityWeek(rows, now, 300);
    expect(week.days.map((day) => day.numItems)).toEqual([1, 0, 0, 0, 0, 1, 3]);
    expect(week.days.map((day) => day.numAlerts)).toEqual([0, 0, 0, 0, 0, 1, 1]);
    expect(week.days.map((day) => day.numFlagged)).toEqual([0, 0, 0, 0, 0, 1, 2]);
    expect(week.hours[10]).toBe(3);
    expect(week.hours[21]).toBe(1);
    expect(week.hours[0]).toBe(1);
    expect(week).toMatchObject({ numItems: 5, numAlerts: 2, numFlagged: 3 });
    expect(week.alertsByCategory).toEqual([
      { category: 'bullying', numAlerts: 1 },
      { category: 'selfHarm', numAlerts: 1 },
    ]);
  });
});

describe('topCounts', () => {
  test.each<[string[], number, { value: string; count: number }[]]>([
    [[], 5, []],
    [
      ['b', 'a', 'b', 'c', 'a', 'b'],
      2,
      [
        { value: 'b', count: 3 },
        { value: 'a', count: 2 },
      ],
    ],
    [
      ['z', 'y'],
      5,
      [
        { value: 'y', count: 1 },
        { value: 'z', count: 1 },
      ],
    ],
  ])('%j (top %i)', (values, length, expected) => {
    expect(topCounts(values, length)).toEqual(expected);
  });
});
