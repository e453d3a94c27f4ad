import { describe, expect, test } from 'vitest';
import {
  groupedRequestIds,
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
