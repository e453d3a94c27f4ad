import { describe, expect, test } from 'vitest';
import {
  type ActivityRow,
  checkActivityRange,
  coalesceActivity,
  groupSuspensionActivity,
  isActivityDueForRemoval,
  isInActivityRange,
  localDayRange,
  localDayStart,
  summariseActivityDays,
} from '../src/activity.ts';

const at = (iso: string) => new Date(iso);

const line = (
  id: string,
  createdAt: string,
  appName: string,
  text: string,
  extra: Partial<{ deletedAt: string; flaggedAt: string; filterSuspended: boolean }> = {},
): ActivityRow => ({
  kind: 'keystrokeLine',
  id,
  createdAt: at(createdAt),
  deletedAt: extra.deletedAt ? at(extra.deletedAt) : null,
  flaggedAt: extra.flaggedAt ? at(extra.flaggedAt) : null,
  filterSuspended: extra.filterSuspended ?? false,
  appName,
  line: text,
});

const shot = (
  id: string,
  createdAt: string,
  extra: Partial<{ deletedAt: string; flaggedAt: string; filterSuspended: boolean }> = {},
): ActivityRow => ({
  kind: 'screenshot',
  id,
  createdAt: at(createdAt),
  deletedAt: extra.deletedAt ? at(extra.deletedAt) : null,
  flaggedAt: extra.flaggedAt ? at(extra.flaggedAt) : null,
  filterSuspended: extra.filterSuspended ?? false,
  objectKey: `k/${id}.jpg`,
  width: 800,
  height: 600,
});

/** A compact view of the coalesced entries: kind:id[ids](text) and markers. */
const describeEntries = (rows: ActivityRow[]) =>
  coalesceActivity(rows).map((entry) => {
    const marks = `${entry.flagged ? ' F' : ''}${entry.duringSuspension ? ' S' : ''}${entry.deletedAt ? ' R' : ''}`;
    return entry.kind === 'screenshot'
      ? `shot ${entry.id} [${entry.ids.join(',')}]${marks}`
      : `${entry.appName} ${entry.id} [${entry.ids.join(',')}] ${JSON.stringify(entry.line)}${marks}`;
  });

describe('coalesceActivity (§7.3)', () => {
  test.each<[string, ActivityRow[], string[]]>([
    ['nothing', [], []],
    [
      'lines of one app merge; the newest id leads; text reads oldest to newest',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'first'),
        line('c', '2026-11-20T10:02:00.000Z', 'Notes', 'third'),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'second'),
      ],
      ['Notes c [c,b,a] "first\\nsecond\\nthird"'],
    ],
    [
      'a different app breaks the group',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one'),
        line('b', '2026-11-20T10:01:00.000Z', 'Safari', 'two'),
        line('c', '2026-11-20T10:02:00.000Z', 'Notes', 'three'),
      ],
      ['Notes c [c] "three"', 'Safari b [b] "two"', 'Notes a [a] "one"'],
    ],
    [
      'a screenshot between lines breaks the group; screenshots never merge',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one'),
        shot('s1', '2026-11-20T10:01:00.000Z'),
        shot('s2', '2026-11-20T10:01:30.000Z'),
        line('c', '2026-11-20T10:02:00.000Z', 'Notes', 'two'),
      ],
      ['Notes c [c] "two"', 'shot s2 [s2]', 'shot s1 [s1]', 'Notes a [a] "one"'],
    ],
    [
      'a different review state breaks the group',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one', {
          deletedAt: '2026-11-20T12:00:00.000Z',
        }),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two'),
      ],
      ['Notes b [b] "two"', 'Notes a [a] "one" R'],
    ],
    [
      'the same review instant merges',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one', {
          deletedAt: '2026-11-20T12:00:00.000Z',
        }),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two', {
          deletedAt: '2026-11-20T12:00:00.000Z',
        }),
      ],
      ['Notes b [b,a] "one\\ntwo" R'],
    ],
    [
      'the group keeps the newest line flag only',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one', {
          flaggedAt: '2026-11-20T11:00:00.000Z',
        }),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two'),
      ],
      ['Notes b [b,a] "one\\ntwo"'],
    ],
    [
      'a flagged newest line flags the group',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one'),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two', {
          flaggedAt: '2026-11-20T11:00:00.000Z',
        }),
      ],
      ['Notes b [b,a] "one\\ntwo" F'],
    ],
    [
      'the group is during a suspension if any member was',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one', { filterSuspended: true }),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two'),
      ],
      ['Notes b [b,a] "one\\ntwo" S'],
    ],
    [
      'screenshot flags and suspension are their own',
      [
        shot('s1', '2026-11-20T10:00:00.000Z', {
          flaggedAt: '2026-11-20T11:00:00.000Z',
          filterSuspended: true,
        }),
        shot('s2', '2026-11-20T10:05:00.000Z'),
      ],
      ['shot s2 [s2]', 'shot s1 [s1] F S'],
    ],
  ])('%s', (_name, rows, expected) => {
    expect(describeEntries(rows)).toEqual(expected);
  });

  test('input order does not matter', () => {
    const rows = [
      line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one'),
      shot('s', '2026-11-20T10:03:00.000Z'),
      line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two'),
    ];
    expect(describeEntries([...rows].reverse())).toEqual(describeEntries(rows));
  });
});

describe('coalesceActivity: alerted lines (issue 24)', () => {
  const alerted = (id: string, createdAt: string, appName: string, text: string): ActivityRow => ({
    ...(line(id, createdAt, appName, text, { flaggedAt: createdAt }) as ActivityRow & {
      kind: 'keystrokeLine';
    }),
    alert: { category: 'selfHarm', words: ['wanna die'] },
  });
  test('an alerted line neither joins nor is joined; its neighbours still coalesce', () => {
    const rows = [
      line('a', '2024-03-06T10:00:00Z', 'Messages', 'hi'),
      alerted('b', '2024-03-06T10:01:00Z', 'Messages', 'i wanna die'),
      line('c', '2024-03-06T10:02:00Z', 'Messages', 'jk'),
      line('d', '2024-03-06T10:03:00Z', 'Messages', 'lol'),
    ];
    const entries = coalesceActivity(rows);
    expect(entries.map((entry) => entry.ids)).toEqual([['d', 'c'], ['b'], ['a']]);
    expect(entries[1]).toMatchObject({
      flagged: true,
      alert: { category: 'selfHarm', words: ['wanna die'] },
    });
    expect('alert' in (entries[0] as object)).toBe(false);
  });
});

describe('localDayStart (fixed offset, §7.4)', () => {
  test.each<[string, string, number, string]>([
    ['UTC, midday', '2026-11-20T12:00:00.000Z', 0, '2026-11-20T00:00:00.000Z'],
    ['UTC, exactly midnight', '2026-11-20T00:00:00.000Z', 0, '2026-11-20T00:00:00.000Z'],
    ['UTC, one ms before midnight', '2026-11-20T23:59:59.999Z', 0, '2026-11-20T00:00:00.000Z'],
    [
      'New York (300): 03:00Z is still the previous local evening',
      '2026-11-20T03:00:00.000Z',
      300,
      '2026-11-19T05:00:00.000Z',
    ],
    [
      'New York (300): 05:00Z is local midnight',
      '2026-11-20T05:00:00.000Z',
      300,
      '2026-11-20T05:00:00.000Z',
    ],
    [
      'Berlin (-60): 23:30Z is already the next local day',
      '2026-11-20T23:30:00.000Z',
      -60,
      '2026-11-20T23:00:00.000Z',
    ],
    [
      'India (-330): half-hour offset',
      '2026-11-20T18:29:00.000Z',
      -330,
      '2026-11-19T18:30:00.000Z',
    ],
    [
      'India (-330): 18:30Z is local midnight',
      '2026-11-20T18:30:00.000Z',
      -330,
      '2026-11-20T18:30:00.000Z',
    ],
    [
      'Kiribati (-840): across the date line',
      '2026-11-20T09:59:00.000Z',
      -840,
      '2026-11-19T10:00:00.000Z',
    ],
  ])('%s', (_name, instant, offset, expected) => {
    expect(localDayStart(at(instant), offset).toISOString()).toBe(expected);
  });

  test('localDayRange covers 00:00:00.000 to 23:59:59.999 local', () => {
    expect(localDayRange(at('2026-11-20T12:00:00.000Z'), 300)).toEqual({
      start: '2026-11-20T05:00:00.000Z',
      end: '2026-11-21T04:59:59.999Z',
    });
  });
});

describe('summariseActivityDays', () => {
  test.each<[string, ActivityRow[], number, Array<[string, number, number, number]>]>([
    ['no rows, no days', [], 0, []],
    [
      'coalesced entries are counted, newest day first',
      [
        line('a', '2026-11-20T10:00:00.000Z', 'Notes', 'one'),
        line('b', '2026-11-20T10:01:00.000Z', 'Notes', 'two'),
        shot('s', '2026-11-20T11:00:00.000Z', { flaggedAt: '2026-11-20T12:00:00.000Z' }),
        shot('t', '2026-11-19T11:00:00.000Z', { deletedAt: '2026-11-20T12:00:00.000Z' }),
      ],
      0,
      [
        ['2026-11-20T00:00:00.000Z', 2, 0, 1],
        ['2026-11-19T00:00:00.000Z', 1, 1, 0],
      ],
    ],
    [
      'the same rows split differently in New York',
      [
        shot('s1', '2026-11-20T03:00:00.000Z'),
        shot('s2', '2026-11-20T06:00:00.000Z', { deletedAt: '2026-11-20T12:00:00.000Z' }),
      ],
      300,
      [
        ['2026-11-20T05:00:00.000Z', 1, 1, 0],
        ['2026-11-19T05:00:00.000Z', 1, 0, 0],
      ],
    ],
    [
      'lines across local midnight are two entries on two days',
      [
        line('a', '2026-11-19T23:59:00.000Z', 'Notes', 'late'),
        line('b', '2026-11-20T00:01:00.000Z', 'Notes', 'early'),
      ],
      0,
      [
        ['2026-11-20T00:00:00.000Z', 1, 0, 0],
        ['2026-11-19T00:00:00.000Z', 1, 0, 0],
      ],
    ],
  ])('%s', (_name, rows, offset, expected) => {
    expect(
      summariseActivityDays(rows, offset).map((day) => [
        day.date.toISOString(),
        day.numTotal,
        day.numApproved,
        day.numFlagged,
      ]),
    ).toEqual(expected);
  });
});

describe('checkActivityRange and isInActivityRange', () => {
  test.each<[string, { start: string; end: string }, string]>([
    ['one day', { start: '2026-11-20T05:00:00.000Z', end: '2026-11-21T04:59:59.999Z' }, 'ok'],
    ['without fractions', { start: '2026-11-20T05:00:00Z', end: '2026-11-21T04:59:59Z' }, 'ok'],
    [
      'exactly 31 days',
      { start: '2026-10-01T00:00:00.000Z', end: '2026-11-01T00:00:00.000Z' },
      'ok',
    ],
    [
      '31 days and 1 ms',
      { start: '2026-10-01T00:00:00.000Z', end: '2026-11-01T00:00:00.001Z' },
      'tooWide',
    ],
    ['not a date', { start: 'yesterday', end: '2026-11-21T04:59:59.999Z' }, 'unparseable'],
    ['empty', { start: '', end: '' }, 'unparseable'],
    ['month 13', { start: '2026-13-01T00:00:00Z', end: '2026-13-02T00:00:00Z' }, 'unparseable'],
    ['reversed', { start: '2026-11-21T00:00:00Z', end: '2026-11-20T00:00:00Z' }, 'reversed'],
  ])('%s', (_name, range, expected) => {
    const result = checkActivityRange(range);
    expect(result.ok ? 'ok' : result.reason).toBe(expected);
  });

  test.each<[string, string, boolean]>([
    ['exactly start is out', '2026-11-20T00:00:00.000Z', false],
    ['just after start is in', '2026-11-20T00:00:00.001Z', true],
    ['exactly end is in', '2026-11-20T23:59:59.999Z', true],
    ['after end is out', '2026-11-21T00:00:00.000Z', false],
  ])('%s', (_name, createdAt, expected) => {
    expect(
      isInActivityRange(
        at(createdAt),
        at('2026-11-20T00:00:00.000Z'),
        at('2026-11-20T23:59:59.999Z'),
      ),
    ).toBe(expected);
  });
});

describe('isActivityDueForRemoval (§7.2)', () => {
  const now = at('2026-11-23T02:30:00.000Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  test.each<[string, number, number | null, number | null, boolean]>([
    // name, created days ago, reviewed days ago, flagged days ago, due
    ['new and unreviewed', 1, null, null, false],
    ['20 days old, unreviewed', 20, null, null, false],
    ['21 days old, unreviewed', 21, null, null, true],
    ['reviewed 13 days ago', 15, 13, null, false],
    ['reviewed 14 days ago', 15, 14, null, true],
    ['21 days old but flagged 10 days ago', 25, null, 10, false],
    ['reviewed 20 days ago but flagged 59 days ago', 70, 20, 59, false],
    ['flagged 60 days ago and old', 70, null, 60, true],
    ['flagged 60 days ago but recent and unreviewed', 5, null, 60, false],
  ])('%s', (_name, created, reviewed, flagged, expected) => {
    expect(
      isActivityDueForRemoval(
        {
          createdAt: daysAgo(created),
          deletedAt: reviewed === null ? null : daysAgo(reviewed),
          flaggedAt: flagged === null ? null : daysAgo(flagged),
        },
        now,
      ),
    ).toBe(expected);
  });
});

describe('groupSuspensionActivity (4-minute rule)', () => {
  type Item = {
    case: 'screenshot' | 'keystrokeLine';
    id: string;
    createdAt: string;
    duringSuspension: boolean;
  };
  const item = (
    id: string,
    kind: 'screenshot' | 'keystrokeLine',
    time: string,
    duringSuspension: boolean,
  ): Item => ({ case: kind, id, createdAt: `2026-11-20T${time}:00.000Z`, duringSuspension });
  const shape = (items: Item[]) =>
    groupSuspensionActivity(items).map((entry) =>
      entry.type === 'item' ? entry.item.id : `[${entry.items.map((i) => i.id).join(',')}]`,
    );

  test.each<[string, Item[], string[]]>([
    ['nothing', [], []],
    [
      'no suspension, no group',
      [item('a', 'screenshot', '10:05', false), item('b', 'keystrokeLine', '10:00', false)],
      ['a', 'b'],
    ],
    [
      'adjacent suspension items form one group',
      [
        item('a', 'screenshot', '10:10', false),
        item('b', 'screenshot', '10:05', true),
        item('c', 'keystrokeLine', '10:04', true),
        item('d', 'screenshot', '10:00', false),
      ],
      ['a', '[b,c]', 'd'],
    ],
    [
      'a line typed within 4 minutes before the suspension items joins',
      [item('b', 'screenshot', '10:05', true), item('c', 'keystrokeLine', '10:01', false)],
      ['[b,c]'],
    ],
    [
      'a line typed more than 4 minutes before does not',
      [item('b', 'screenshot', '10:05', true), item('c', 'keystrokeLine', '10:00', false)],
      ['[b]', 'c'],
    ],
    [
      'a screenshot before the suspension never joins',
      [item('b', 'screenshot', '10:05', true), item('c', 'screenshot', '10:04', false)],
      ['[b]', 'c'],
    ],
    [
      'a joined line keeps the group open for older suspension items',
      [
        item('a', 'screenshot', '10:05', true),
        item('b', 'keystrokeLine', '10:03', false),
        item('c', 'screenshot', '10:02', true),
      ],
      ['[a,b,c]'],
    ],
  ])('%s', (_name, items, expected) => {
    expect(shape(items)).toEqual(expected);
  });
});
