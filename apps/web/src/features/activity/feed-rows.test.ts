import type { UserActivityItem } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { type FeedEntry, initialActivityFeed } from './activity-feed';
import { buildFeedRows, type FeedRow, rowIndexOf } from './feed-rows';
import { lineItem, screenshotItem } from './test-fixtures';

const minute = (m: number) => new Date(Date.UTC(2026, 10, 23, 10, m)).toISOString();

function entriesOf(items: UserActivityItem[], showSuspensionActivity = true): FeedEntry[] {
  return initialActivityFeed([{ userName: 'Sam', showSuspensionActivity, numDeleted: 0, items }])
    .entries;
}

const describeRow = (row: FeedRow) =>
  row.type === 'item'
    ? `${row.entry.item.id}${row.suspension ? `:${row.suspension}` : ''}`
    : row.type === 'child'
      ? `[${row.childName}]`
      : `delete ${row.numDeletable}/${row.ids.length}`;

describe('suspension grouping (4-minute rule) when the child shows suspension activity', () => {
  test.each<[string, UserActivityItem[], string[]]>([
    [
      'suspension items next to each other form one group',
      [
        screenshotItem('s1', { createdAt: minute(30), duringSuspension: true }),
        lineItem('l1', { createdAt: minute(29), duringSuspension: true }),
        screenshotItem('s2', { createdAt: minute(28), duringSuspension: true }),
        screenshotItem('x', { createdAt: minute(10) }),
      ],
      ['s1:first', 'l1:middle', 's2:last', 'x'],
    ],
    [
      'a line typed up to 4 minutes before the suspension items joins',
      [
        screenshotItem('s1', { createdAt: minute(30), duringSuspension: true }),
        lineItem('l1', { createdAt: minute(26) }),
        lineItem('l2', { createdAt: minute(20) }),
      ],
      ['s1:first', 'l1:last', 'l2'],
    ],
    [
      'a screenshot outside the suspension never joins',
      [
        screenshotItem('s1', { createdAt: minute(30), duringSuspension: true }),
        screenshotItem('s2', { createdAt: minute(29) }),
      ],
      ['s1:only', 's2'],
    ],
    [
      'two suspensions are two groups',
      [
        lineItem('a', { createdAt: minute(40), duringSuspension: true }),
        screenshotItem('b', { createdAt: minute(30) }),
        lineItem('c', { createdAt: minute(20), duringSuspension: true }),
      ],
      ['a:only', 'b', 'c:only'],
    ],
  ])('%s', (_name, items, expected) => {
    expect(buildFeedRows(entriesOf(items)).map(describeRow)).toEqual(expected);
  });

  test('no grouping or highlight when the child does not show suspension activity', () => {
    const items = [screenshotItem('s1', { createdAt: minute(30), duringSuspension: true })];
    expect(buildFeedRows(entriesOf(items, false)).map(describeRow)).toEqual(['s1']);
  });
});

describe("'Delete previous N items' every 100 items", () => {
  const many = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      lineItem(`i${i}`, { createdAt: minute(59 - (i % 60)), flagged: i === 1 }),
    );

  test.each<[number, string[]]>([
    [99, []],
    [100, []],
    [101, ['delete 99/100']],
    [250, ['delete 99/100', 'delete 199/200']],
  ])('%i items', (count, expected) => {
    const rows = buildFeedRows(entriesOf(many(count), false), { chunk: 100 });
    expect(rows.filter((row) => row.type === 'deletePrevious').map(describeRow)).toEqual(expected);
    expect(rows.filter((row) => row.type === 'item')).toHaveLength(count);
  });

  test('the button follows the 100th item', () => {
    const rows = buildFeedRows(entriesOf(many(150), false));
    expect(rows[100]?.type).toBe('deletePrevious');
    expect(rows[99]?.type === 'item' && rows[99].index).toBe(99);
  });
});

test('the family feed heads each child and counts chunks across children', () => {
  const state = initialActivityFeed([
    {
      userName: 'Sam',
      showSuspensionActivity: false,
      numDeleted: 0,
      items: [lineItem('a'), lineItem('b')],
    },
    { userName: 'Kim', showSuspensionActivity: false, numDeleted: 0, items: [screenshotItem('c')] },
  ]);
  const rows = buildFeedRows(state.entries, { showsChildNames: true, chunk: 2 });
  expect(rows.map(describeRow)).toEqual(['[Sam]', 'a', 'b', 'delete 2/2', '[Kim]', 'c']);
  expect(rowIndexOf(rows, 'c')).toBe(5);
  expect(rowIndexOf(rows, null)).toBe(-1);
});

test('deleted items leave the list', () => {
  const entries = entriesOf([lineItem('a'), lineItem('b')]).map((entry) =>
    entry.item.id === 'a' ? { ...entry, status: 'deleting' as const } : entry,
  );
  expect(buildFeedRows(entries).map(describeRow)).toEqual(['b']);
});
