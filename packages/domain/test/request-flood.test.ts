import { describe, expect, test } from 'vitest';
import {
  fitsPendingBudget,
  groupedRequestIds,
  newestPerChild,
  PENDING_SHOWN_PER_CHILD,
  PENDING_UNLOCKS_PER_CHILD,
  PENDING_UNLOCKS_PER_DEVICE,
  notificationWindow,
  pendingSuspensionToReuse,
  planUnlockRequests,
  type UnlockTarget,
  unlockTargetKey,
} from '../src/request-flood.ts';

const target = (overrides: Partial<UnlockTarget> = {}): UnlockTarget => ({
  bundleId: 'com.apple.Safari',
  url: null,
  hostname: null,
  ipAddress: null,
  ...overrides,
});

describe('the same unlock target', () => {
  test.each<[string, UnlockTarget, UnlockTarget, boolean]>([
    ['identical', target({ hostname: 'a.com' }), target({ hostname: 'a.com' }), true],
    ['host name case', target({ hostname: 'A.com' }), target({ hostname: 'a.com' }), true],
    ['another host', target({ hostname: 'a.com' }), target({ hostname: 'b.com' }), false],
    [
      'another app',
      target({ hostname: 'a.com' }),
      target({ bundleId: 'x', hostname: 'a.com' }),
      false,
    ],
    ['url vs none', target({ url: 'https://a.com/x' }), target(), false],
    ['url path', target({ url: 'https://a.com/x' }), target({ url: 'https://a.com/y' }), false],
    ['ip', target({ ipAddress: '1.2.3.4' }), target({ ipAddress: '1.2.3.4' }), true],
    ['app only', target(), target(), true],
    // a host name made of the separator characters cannot pass for another field
    [
      'no field shift',
      target({ url: 'a', hostname: null }),
      target({ url: null, hostname: 'a' }),
      false,
    ],
  ])('%s', (_name, a, b, same) => {
    expect(unlockTargetKey(a) === unlockTargetKey(b)).toBe(same);
  });
});

describe('planUnlockRequests', () => {
  const ids = () => {
    let n = 0;
    return () => `new-${++n}`;
  };

  test.each<[string, (UnlockTarget & { id: string })[], UnlockTarget[], string[], number[]]>([
    ['nothing pending', [], [target({ hostname: 'a.com' })], ['new-1'], [0]],
    [
      'already pending: the pending id, nothing stored',
      [{ id: 'p1', ...target({ hostname: 'a.com' }) }],
      [target({ hostname: 'a.com' })],
      ['p1'],
      [],
    ],
    [
      'the oldest of several pending',
      [
        { id: 'p1', ...target({ hostname: 'a.com' }) },
        { id: 'p2', ...target({ hostname: 'a.com' }) },
      ],
      [target({ hostname: 'a.com' })],
      ['p1'],
      [],
    ],
    [
      'repeated in the batch: stored once, the same id twice',
      [],
      [target({ hostname: 'a.com' }), target({ hostname: 'b.com' }), target({ hostname: 'a.com' })],
      ['new-1', 'new-2', 'new-1'],
      [0, 1],
    ],
    [
      'mixed',
      [{ id: 'p1', ...target({ url: 'https://a.com/' }) }],
      [target({ hostname: 'b.com' }), target({ url: 'https://a.com/' })],
      ['new-1', 'p1'],
      [0],
    ],
  ])('%s', (_name, pending, incoming, expectedIds, expectedToStore) => {
    expect(planUnlockRequests(pending, incoming, ids())).toEqual({
      ids: expectedIds,
      toStore: expectedToStore,
    });
  });
});

describe('pendingSuspensionToReuse', () => {
  const now = new Date('2025-01-15T12:00:00.000Z');
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

  test.each<[string, { id: string; createdAt: string }[], string | undefined]>([
    ['none pending', [], undefined],
    ['one live', [{ id: 'a', createdAt: ago(5) }], 'a'],
    [
      'the newest live',
      [
        { id: 'a', createdAt: ago(30) },
        { id: 'b', createdAt: ago(5) },
      ],
      'b',
    ],
    ['expired (over 2 hours)', [{ id: 'a', createdAt: ago(121) }], undefined],
    ['exactly 2 hours is still live', [{ id: 'a', createdAt: ago(120) }], 'a'],
  ])('%s', (_name, pending, expected) => {
    expect(pendingSuspensionToReuse(pending, now)?.id).toBe(expected);
  });
});

describe('notificationWindow', () => {
  test.each<[string, number, string, string]>([
    ['inside a minute', 60, '2025-01-15T12:00:42.123Z', '2025-01-15T12:00:00.000Z'],
    ['on the boundary', 60, '2025-01-15T12:01:00.000Z', '2025-01-15T12:01:00.000Z'],
    ['just before it', 60, '2025-01-15T12:00:59.999Z', '2025-01-15T12:00:00.000Z'],
    ['two seconds', 2, '2025-01-15T12:00:03.500Z', '2025-01-15T12:00:02.000Z'],
  ])('%s', (_name, seconds, at, start) => {
    const window = notificationWindow(new Date(at), seconds);
    expect(window.start.toISOString()).toBe(start);
    expect(window.end.getTime() - window.start.getTime()).toBe(seconds * 1000);
  });
});

describe('groupedRequestIds', () => {
  test.each<[string, string[], string[], string[]]>([
    ['own only, in its order', ['b', 'a'], ['a', 'b'], ['b', 'a']],
    ['own first, then the others', ['c'], ['a', 'b', 'c'], ['c', 'a', 'b']],
    ['own decided meanwhile: left out', ['x', 'c'], ['a', 'c'], ['c', 'a']],
    ['no own ids', [], ['a', 'b'], ['a', 'b']],
  ])('%s', (_name, own, inWindow, expected) => {
    expect(groupedRequestIds(own, inWindow)).toEqual(expected);
  });
});

describe('the stored budget of pending unlock requests (issue 31)', () => {
  test.each<[string, { device: number; child: number }, number, boolean]>([
    ['nothing new', { device: 500, child: 1000 }, 0, true],
    ['room on both', { device: 0, child: 0 }, 500, true],
    ['the device full', { device: 500, child: 500 }, 1, false],
    ['past the device', { device: 499, child: 499 }, 2, false],
    ['the child full', { device: 0, child: 1000 }, 1, false],
    ['exactly the child', { device: 0, child: 990 }, 10, true],
    ['a batch above the device', { device: 0, child: 0 }, 501, false],
  ])('%s', (_name, waiting, adding, fits) => {
    expect(fitsPendingBudget(waiting, adding)).toBe(fits);
    expect(PENDING_UNLOCKS_PER_DEVICE).toBe(500);
    expect(PENDING_UNLOCKS_PER_CHILD).toBe(1000);
  });
});

describe('a page of each child’s newest pending requests (issue 31)', () => {
  const item = (childId: string, minute: number, id = `${childId}-${minute}`) => ({
    childId,
    id,
    createdAt: `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
  });

  test('the newest per child, newest first, and a count of the rest', () => {
    const items = [item('a', 1), item('b', 5), item('a', 3), item('a', 2), item('b', 4)];
    const { shown, more } = newestPerChild(
      items,
      new Map([
        ['a', 10],
        ['b', 2],
      ]),
      2,
    );
    expect(shown.map((i) => i.id)).toEqual(['b-5', 'b-4', 'a-3', 'a-2']);
    expect([...more]).toEqual([['a', 8]]);
  });

  test('ties by id, and a child with nothing left out is not counted', () => {
    const items = [item('a', 1, 'x'), item('a', 1, 'y'), item('a', 1, 'z')];
    const { shown, more } = newestPerChild(items, new Map([['a', 3]]), 3);
    expect(shown.map((i) => i.id)).toEqual(['z', 'y', 'x']);
    expect(more.size).toBe(0);
  });

  test('the default page is 25 per child', () => {
    const items = Array.from({ length: 40 }, (_, n) =>
      item('a', n % 60, `id${String(n).padStart(2, '0')}`),
    );
    const { shown, more } = newestPerChild(items, new Map([['a', 40000]]));
    expect(PENDING_SHOWN_PER_CHILD).toBe(25);
    expect(shown).toHaveLength(25);
    expect(more.get('a')).toBe(39975);
  });
});
