import { describe, expect, test } from 'vitest';
import { blockedUrlOf, describeSuspensionEnd, offerableParts } from '../src/block-page.ts';
import {
  alarmTime,
  OFFLINE_REPORT_AFTER_MS,
  reconnectDelayMs,
  scaledSize,
  shouldReportOffline,
} from '../src/timing.ts';

test.each([
  [0, 1_000],
  [1, 2_000],
  [3, 8_000],
  [10, 60_000],
  [50, 60_000],
])('reconnect attempt %i waits about %i ms', (attempt, expected) => {
  expect(reconnectDelayMs(attempt, () => 0.5)).toBe(expected);
  expect(reconnectDelayMs(attempt, () => 0)).toBe(expected * 0.8);
});

describe('shouldReportOffline: once per outage, after five minutes of use', () => {
  const now = 1_000_000_000;
  test.each<[string, number | undefined, number | undefined, boolean]>([
    ['the channel is up', undefined, undefined, false],
    ['down for four minutes', now - 4 * 60_000, undefined, false],
    ['down for exactly five minutes', now - OFFLINE_REPORT_AFTER_MS, undefined, false],
    ['down for six minutes', now - 6 * 60_000, undefined, true],
    ['already reported for this outage', now - 6 * 60_000, now - 6 * 60_000, false],
    ['reported for an earlier outage', now - 6 * 60_000, now - 60 * 60_000, true],
  ])('%s → %s', (_name, channelDownSince, reportedFor, expected) => {
    expect(
      shouldReportOffline({ now, channelDownSince, reportedForOutageStartingAt: reportedFor }),
    ).toBe(expected);
  });
});

test.each([
  [2560, 1440, 1280, { width: 1280, height: 720 }],
  [1000, 800, 1280, { width: 1000, height: 800 }],
  [1366, 768, 800, { width: 800, height: 450 }],
])('a %ix%i capture at width %i', (width, height, target, expected) => {
  expect(scaledSize(width, height, target)).toEqual(expected);
});

test('alarms fire no sooner than 30 s', () => {
  expect(alarmTime(new Date(1_000), 0)).toBe(30_000);
  expect(alarmTime(new Date(90_000), 0)).toBe(90_000);
});

describe('the block page', () => {
  test.each<[string, string | undefined]>([
    ['#http://blocked.test:4321/a?b=1', 'http://blocked.test:4321/a?b=1'],
    ['#https://example.com/a#b', 'https://example.com/a#b'],
    ['#javascript:alert(1)', undefined],
    ['', undefined],
    ['#not a url', undefined],
  ])('the blocked address in %j is %j', (hash, expected) => {
    expect(blockedUrlOf(hash)).toBe(expected);
  });

  test('offers each blocked part once, newest first, never the page itself', () => {
    expect(
      offerableParts(
        [
          'https://cdn.test/a.js',
          'https://page.test/',
          'https://cdn.test/b.css',
          'https://cdn.test/a.js',
          'data:image/png;base64,xx',
        ],
        'https://page.test/',
      ),
    ).toEqual(['https://cdn.test/a.js', 'https://cdn.test/b.css']);
  });

  test('the suspension end in words', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    expect(describeSuspensionEnd(new Date('2026-11-26T10:15:00Z'), now)).toBe(
      'for 15 more minutes',
    );
    expect(describeSuspensionEnd(new Date('2026-11-26T10:00:20Z'), now)).toBe('for about a minute');
  });
});
