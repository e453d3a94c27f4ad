import type { BrowserKeychain } from '@keyward/contract/browser';
import { describe, expect, test } from 'vitest';
import {
  type Allowance,
  allowanceProblem,
  exemptHostMatcher,
  isCountedHost,
  isReportableMinute,
  localDay,
  localDayStart,
  minuteBucket,
  minutesInWords,
  NO_LIMIT,
  nextLocalMidnight,
  pauseEnd,
  pauseState,
  screenTimeToday,
  usedMinutes,
} from '../src/screen-time.ts';

const schoolDays: Allowance = {
  monday: 120,
  tuesday: 120,
  wednesday: 120,
  thursday: 120,
  friday: 120,
  saturday: 180,
  sunday: 180,
};

describe('the local day', () => {
  test.each<[string, string, string, string]>([
    // instant, zone, local date, weekday
    ['2026-12-07T12:00:00Z', 'UTC', '2026-12-07', 'monday'],
    ['2026-12-07T04:59:00Z', 'America/New_York', '2026-12-06', 'sunday'],
    ['2026-12-07T05:00:00Z', 'America/New_York', '2026-12-07', 'monday'],
    ['2026-12-06T22:59:00Z', 'Europe/Paris', '2026-12-06', 'sunday'],
    ['2026-12-06T23:00:00Z', 'Europe/Paris', '2026-12-07', 'monday'],
    ['2026-12-06T13:29:00Z', 'Pacific/Auckland', '2026-12-07', 'monday'],
    ['2026-12-06T18:29:00Z', 'Asia/Kolkata', '2026-12-06', 'sunday'],
    ['2026-12-06T18:30:00Z', 'Asia/Kolkata', '2026-12-07', 'monday'],
    ['2026-12-07T12:00:00Z', 'Not/AZone', '2026-12-07', 'monday'],
  ])('%s in %s is %s, a %s', (at, zone, date, weekday) => {
    expect(localDay(new Date(at), zone)).toEqual({ date, weekday });
  });
});

describe('local midnight', () => {
  test.each<[string, string, string, string]>([
    // instant, zone, start of its day, next midnight
    ['2026-12-07T12:00:00Z', 'UTC', '2026-12-07T00:00:00.000Z', '2026-12-08T00:00:00.000Z'],
    [
      '2026-12-07T12:00:00Z',
      'America/New_York',
      '2026-12-07T05:00:00.000Z',
      '2026-12-08T05:00:00.000Z',
    ],
    [
      '2026-12-07T12:00:00Z',
      'Asia/Kolkata',
      '2026-12-06T18:30:00.000Z',
      '2026-12-07T18:30:00.000Z',
    ],
    [
      '2026-12-07T12:00:00Z',
      'Pacific/Auckland',
      '2026-12-07T11:00:00.000Z',
      '2026-12-08T11:00:00.000Z',
    ],
    // Europe: summer time starts 29 March 2026 at 02:00 (a 23-hour day)
    [
      '2026-03-29T10:00:00Z',
      'Europe/Paris',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ],
    // and ends 25 October 2026 at 03:00 (a 25-hour day)
    [
      '2026-10-25T10:00:00Z',
      'Europe/Paris',
      '2026-10-24T22:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
    ],
    // United States: 8 March 2026 and 1 November 2026
    [
      '2026-03-08T12:00:00Z',
      'America/New_York',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ],
    [
      '2026-11-01T12:00:00Z',
      'America/New_York',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ],
    // Chile's clocks go from 23:59:59 to 01:00 on 6 September 2026: there is no midnight that day
    [
      '2026-09-05T12:00:00Z',
      'America/Santiago',
      '2026-09-05T04:00:00.000Z',
      '2026-09-06T04:00:00.000Z',
    ],
  ])('%s in %s: the day began %s and resets %s', (at, zone, start, next) => {
    expect(localDayStart(new Date(at), zone).toISOString()).toBe(start);
    expect(nextLocalMidnight(new Date(at), zone).toISOString()).toBe(next);
  });

  test('one minute before midnight resets a minute later; at midnight, a day later', () => {
    expect(
      nextLocalMidnight(new Date('2026-12-07T04:59:00Z'), 'America/New_York').toISOString(),
    ).toBe('2026-12-07T05:00:00.000Z');
    expect(
      nextLocalMidnight(new Date('2026-12-07T05:00:00Z'), 'America/New_York').toISOString(),
    ).toBe('2026-12-08T05:00:00.000Z');
  });
});

describe('the allowance', () => {
  test.each<[Allowance, string | null]>([
    [schoolDays, null],
    [NO_LIMIT, null],
    [{ ...NO_LIMIT, monday: 0 }, null],
    [{ ...NO_LIMIT, monday: 1440 }, null],
    [{ ...NO_LIMIT, tuesday: 1441 }, 'The time allowed on Tuesday can be at most 24 hours.'],
    [{ ...NO_LIMIT, friday: -5 }, 'The time allowed on Friday must be a whole number of minutes.'],
    [{ ...NO_LIMIT, sunday: 1.5 }, 'The time allowed on Sunday must be a whole number of minutes.'],
  ])('%j: %s', (allowance, problem) => {
    expect(allowanceProblem(allowance)).toBe(problem);
  });

  test.each<[string, string, number, number, number | null, boolean, boolean]>([
    // instant, zone, used, granted → remaining, time's up, warning
    ['2026-12-07T12:00:00Z', 'UTC', 0, 0, 120, false, false], // a Monday: 2 hours
    ['2026-12-07T12:00:00Z', 'UTC', 115, 0, 5, false, true],
    ['2026-12-07T12:00:00Z', 'UTC', 120, 0, 0, true, false],
    ['2026-12-07T12:00:00Z', 'UTC', 150, 0, 0, true, false],
    ['2026-12-07T12:00:00Z', 'UTC', 120, 15, 15, false, false], // a grant extends today
    ['2026-12-07T12:00:00Z', 'UTC', 130, 15, 5, false, true],
    ['2026-12-05T12:00:00Z', 'UTC', 120, 0, 60, false, false], // a Saturday: 3 hours
    // a Monday in UTC is still Sunday in New York: the weekend's allowance
    ['2026-12-07T03:00:00Z', 'America/New_York', 170, 0, 10, false, false],
  ])('%s in %s, %i used, %i granted: %s left', (at, zone, used, granted, remaining, up, warn) => {
    const today = screenTimeToday({
      allowance: schoolDays,
      timeZone: zone,
      now: new Date(at),
      usedMinutes: used,
      grantedMinutes: granted,
    });
    expect([today.remainingMinutes, today.timesUp, today.warning]).toEqual([remaining, up, warn]);
  });

  test('a day without a limit is never up', () => {
    const today = screenTimeToday({
      allowance: { ...schoolDays, monday: null },
      timeZone: 'UTC',
      now: new Date('2026-12-07T12:00:00Z'),
      usedMinutes: 900,
      grantedMinutes: 0,
    });
    expect(today).toMatchObject({ allowanceMinutes: null, remainingMinutes: null, timesUp: false });
    expect(today.resetsAt.toISOString()).toBe('2026-12-08T00:00:00.000Z');
  });

  test('an allowance of none is up from the start of the day', () => {
    const today = screenTimeToday({
      allowance: { ...schoolDays, monday: 0 },
      timeZone: 'UTC',
      now: new Date('2026-12-07T00:00:00Z'),
      usedMinutes: 0,
      grantedMinutes: 0,
    });
    expect(today.timesUp).toBe(true);
  });
});

describe('minutes from several browsers', () => {
  const a = ['2026-12-07T10:00:00.000Z', '2026-12-07T10:01:00.000Z', '2026-12-07T10:02:00.000Z'];
  const b = ['2026-12-07T10:01:00.000Z', '2026-12-07T10:02:00.000Z', '2026-12-07T10:03:00.000Z'];
  test.each<[string, string[][], number]>([
    ['one browser', [a], 3],
    ['two browsers at the same time count each minute once', [a, b], 4],
    ['the same report twice', [a, a], 3],
    ['nothing', [[], []], 0],
    ['not a date', [['yesterday']], 0],
  ])('%s', (_name, reports, minutes) => {
    expect(usedMinutes(reports)).toBe(minutes);
  });

  test('only the minutes of the day', () => {
    const day = { from: new Date('2026-12-07T10:01:00Z'), to: new Date('2026-12-07T10:03:00Z') };
    expect(usedMinutes([a, b], day)).toBe(2);
  });

  test('buckets are whole minutes', () => {
    expect(minuteBucket(new Date('2026-12-07T10:01:59.999Z'))).toBe('2026-12-07T10:01:00.000Z');
  });

  const now = new Date('2026-12-07T10:05:30Z');
  const connected = new Date('2026-12-07T09:29:40Z');
  test.each<[string, Date | undefined, boolean]>([
    ['2026-12-07T10:04:00.000Z', connected, true],
    ['2026-12-07T10:05:00.000Z', connected, true], // the running minute
    ['2026-12-07T10:06:00.000Z', connected, false], // not yet passed
    ['2026-12-07T10:04:30.000Z', connected, false], // not a bucket
    ['2026-12-07T09:29:00.000Z', connected, true], // the minute it was connected in
    ['2026-12-07T09:00:00.000Z', connected, false], // before the browser was connected
    ['2026-11-30T10:06:00.000Z', undefined, true],
    ['2026-11-30T10:05:00.000Z', undefined, false], // more than a week old
    ['garbage', undefined, false],
  ])('%s is reportable (connected %s): %s', (bucket, notBefore, ok) => {
    expect(isReportableMinute(bucket, now, notBefore)).toBe(ok);
  });
});

describe('keychains that do not use up time', () => {
  const keychain = (id: string, domain: string, expiration?: string): BrowserKeychain => ({
    id,
    name: id,
    keys: [
      {
        id: '00000000-0000-4000-8000-000000000001',
        key: { type: 'anySubdomain', domain, scope: { type: 'webBrowsers' } },
        ...(expiration ? { expiration } : {}),
      },
    ],
  });
  const school = '11111111-1111-4111-8111-111111111111';
  const games = '22222222-2222-4222-8222-222222222222';
  const keychains = [
    keychain(school, 'khanacademy.org'),
    keychain(games, 'games.example'),
    keychain('33333333-3333-4333-8333-333333333333', 'old.example', '2026-12-01T00:00:00Z'),
  ];
  const now = new Date('2026-12-07T10:00:00Z');
  test.each<[string, string[], boolean]>([
    ['www.khanacademy.org', [school], false],
    ['khanacademy.org', [school.toUpperCase()], false],
    ['games.example', [school], true],
    ['games.example', [], true],
    ['games.example', [school, games], false],
    ['old.example', ['33333333-3333-4333-8333-333333333333'], true], // its key expired
    ['', [school], false],
  ])('%s with exempt %j counts: %s', (host, exempt, counted) => {
    expect(isCountedHost(host, exemptHostMatcher(keychains, exempt), now)).toBe(counted);
  });
});

describe('pause', () => {
  const now = new Date('2026-12-07T10:00:00Z');
  test.each<[string | null, string | null, boolean]>([
    [null, null, false],
    ['2026-12-07T09:50:00Z', '2026-12-07T10:05:00Z', true],
    ['2026-12-07T09:00:00Z', '2026-12-07T10:00:00Z', false], // over
    ['2026-12-01T09:00:00Z', null, true], // until resumed
  ])('paused at %s until %s: %s', (at, until, paused) => {
    const state = pauseState(at ? new Date(at) : null, until ? new Date(until) : null, now);
    expect(state.paused).toBe(paused);
  });

  test('lengths', () => {
    expect(pauseEnd(15, now)?.toISOString()).toBe('2026-12-07T10:15:00.000Z');
    expect(pauseEnd(null, now)).toBeNull();
    expect(() => pauseEnd(0, now)).toThrow(RangeError);
    expect(() => pauseEnd(7 * 1440 + 1, now)).toThrow(RangeError);
  });

  test.each<[number, string]>([
    [45, '45 minutes'],
    [60, '1 hour'],
    [150, '2 hours 30 minutes'],
    [0, '0 minutes'],
  ])('%i in words: %s', (minutes, words) => {
    expect(minutesInWords(minutes)).toBe(words);
  });
});
