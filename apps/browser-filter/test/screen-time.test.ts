import type { BrowserScreenTime } from '@keyward/contract/browser';
import { describe, expect, test } from 'vitest';
import {
  minutesToSend,
  pausedWords,
  remainingMinutes,
  shouldWarn,
  warningKey,
  warningWords,
  withMinute,
  withoutSent,
} from '../src/screen-time.ts';

const now = new Date('2026-12-07T10:05:20Z');
const today: BrowserScreenTime = {
  allowedMinutes: 30,
  usedMinutes: 20,
  remainingMinutes: 10,
  resetsAt: '2026-12-08T00:00:00Z',
  exemptKeychainIds: [],
};

describe('minutes kept until sent', () => {
  test('a minute is kept once; a week-old one is forgotten', () => {
    let used = withMinute({}, '2026-12-07T10:05:00.000Z', 'a.example', now);
    used = withMinute(used, '2026-12-07T10:05:00.000Z', 'b.example', now);
    used = withMinute(
      { ...used, '2026-11-30T10:00:00.000Z': 'old.example' },
      '2026-12-07T10:04:00.000Z',
      'a.example',
      now,
    );
    expect(used).toEqual({
      '2026-12-07T10:05:00.000Z': 'a.example',
      '2026-12-07T10:04:00.000Z': 'a.example',
    });
  });

  test('sent oldest first, at most a day per check-in, and forgotten once sent', () => {
    const used = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [
        new Date(Date.parse('2026-12-06T00:00:00Z') + i * 60_000).toISOString(),
        's.example',
      ]),
    );
    const batch = minutesToSend(used);
    expect(batch).toHaveLength(1440);
    expect(batch[0]).toEqual({ minute: '2026-12-06T00:00:00Z', site: 's.example' });
    expect(Object.keys(withoutSent(used, batch))).toHaveLength(60);
  });
});

describe('time left', () => {
  test.each<[string, Record<string, string>, BrowserScreenTime | undefined, number | null]>([
    ['the server’s answer', {}, today, 10],
    [
      'minus what is not sent yet',
      { '2026-12-07T10:04:00.000Z': 'a', '2026-12-07T10:05:00.000Z': 'a' },
      today,
      8,
    ],
    [
      'yesterday’s unsent minutes do not count today',
      { '2026-12-06T23:59:00.000Z': 'a' },
      today,
      10,
    ],
    [
      'never below zero',
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`2026-12-07T09:${String(i + 10)}:00.000Z`, 'a']),
      ),
      today,
      0,
    ],
    ['no limit today', {}, { ...today, allowedMinutes: null, remainingMinutes: null }, null],
    ['no allowance at all', {}, undefined, null],
    ['the answer’s day is over', {}, { ...today, resetsAt: '2026-12-07T10:00:00Z' }, null],
  ])('%s', (_name, used, screenTime, expected) => {
    expect(remainingMinutes(screenTime, used, now)).toBe(expected);
  });

  test('the warning: 5 minutes before, once per day and allowance', () => {
    expect([6, 5, 1, 0, null].map((left) => shouldWarn(left))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(warningKey(today)).not.toBe(warningKey({ ...today, allowedMinutes: 45 }));
    expect(warningWords(1)).toBe('Keyward: 1 minute of screen time left today.');
    expect(warningWords(5)).toBe('Keyward: 5 minutes of screen time left today.');
  });

  test('the pause in words', () => {
    expect(pausedWords(undefined)).toBe('A parent paused the internet until they turn it back on.');
    expect(pausedWords('2026-12-07T10:20:00Z')).toMatch(
      /^A parent paused the internet until \d\d:\d\d/,
    );
  });
});
