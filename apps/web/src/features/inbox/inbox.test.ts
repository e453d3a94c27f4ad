import type { InboxItem } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  badgeText,
  groupByChild,
  inboxPreview,
  inboxViewReducer,
  initialInboxView,
  titleWithCount,
  waitingItems,
} from './inbox';
import { itemOf } from './test-fixtures';

describe('groupByChild', () => {
  test('the child with the newest request first, each child newest first', () => {
    const items = [
      itemOf({ id: 'a', childName: 'Emma', minutesAgo: 30 }),
      itemOf({ id: 'b', childName: 'Noah', minutesAgo: 10 }),
      itemOf({ id: 'c', childName: 'Emma', minutesAgo: 5 }),
      itemOf({ id: 'd', childName: 'Noah', minutesAgo: 50 }),
    ];
    expect(
      groupByChild(items).map((group) => [group.childName, group.items.map((item) => item.id)]),
    ).toEqual([
      ['Emma', ['c', 'a']],
      ['Noah', ['b', 'd']],
    ]);
  });
});

describe('inboxPreview', () => {
  test.each<[string, number, string[], number]>([
    ['none', 0, [], 0],
    ['fewer than the limit', 2, ['i0', 'i1'], 0],
    ['more than the limit', 7, ['i0', 'i1', 'i2', 'i3', 'i4'], 2],
  ])('%s', (_name, count, shown, numMore) => {
    const items = Array.from({ length: count }, (_, i) => itemOf({ id: `i${i}`, minutesAgo: i }));
    const preview = inboxPreview(items, 5);
    expect(preview.shown.map((item) => item.id)).toEqual(shown);
    expect(preview.numMore).toBe(numMore);
  });
});

describe('the count in the tab title and the badge', () => {
  test.each([
    [0, 'Keyward', '0'],
    [3, '(3) Keyward', '3'],
    [120, '(120) Keyward', '99+'],
  ])('%i waiting', (count, title, badge) => {
    expect(titleWithCount(count)).toBe(title);
    expect(badgeText(count)).toBe(badge);
  });
});

describe('inboxViewReducer', () => {
  const items: InboxItem[] = [itemOf({ id: 'a' }), itemOf({ id: 'b' })];

  test('deciding hides the request at once and closes its form', () => {
    let state = inboxViewReducer(initialInboxView, { type: 'decideOpened', id: 'a' });
    expect(state.openId).toBe('a');
    state = inboxViewReducer(state, { type: 'decided', id: 'a' });
    expect(state).toEqual({ openId: undefined, decidedIds: ['a'], hasDecided: true });
    expect(waitingItems(items, state).map((item) => item.id)).toEqual(['b']);
  });

  test('the next poll without the request forgets it; hasDecided stays for "All answered"', () => {
    let state = inboxViewReducer(initialInboxView, { type: 'decided', id: 'a' });
    state = inboxViewReducer(state, { type: 'inboxLoaded', ids: ['b'] });
    expect(state).toEqual({ openId: undefined, decidedIds: [], hasDecided: true });
  });

  test('a request decided elsewhere (another tab, a co-parent) closes its open form', () => {
    let state = inboxViewReducer(initialInboxView, { type: 'decideOpened', id: 'b' });
    state = inboxViewReducer(state, { type: 'inboxLoaded', ids: ['a'] });
    expect(state.openId).toBeUndefined();
    expect(state.hasDecided).toBe(false);
  });

  test('a poll that changes nothing keeps the same state', () => {
    const state = inboxViewReducer(initialInboxView, { type: 'decideOpened', id: 'a' });
    expect(inboxViewReducer(state, { type: 'inboxLoaded', ids: ['a', 'b'] })).toBe(state);
  });

  test('Not now closes the form', () => {
    const state = inboxViewReducer(initialInboxView, { type: 'decideOpened', id: 'a' });
    expect(inboxViewReducer(state, { type: 'decideClosed' }).openId).toBeUndefined();
  });
});
