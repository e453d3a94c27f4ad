import type { FilterState } from '@keyward/contract/device';
import type { ChildComputerStatus } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type ComputerUserPresence,
  childStatus,
  computerUserStatus,
  OFFLINE_AFTER_SECONDS,
  statusLabel,
} from '../src/status.ts';

const now = new Date('2024-03-04T15:00:00.000Z');
const secondsAgo = (s: number) => new Date(now.getTime() - s * 1000);
const seen = (s: number, filterState?: FilterState): ComputerUserPresence => ({
  lastSeenAt: secondsAgo(s),
  filterState,
});

describe('computerUserStatus', () => {
  test('offline after 100 seconds', () => {
    expect(OFFLINE_AFTER_SECONDS).toBe(100);
  });

  test.each<[string, ComputerUserPresence | undefined, ChildComputerStatus]>([
    ['no presence', undefined, { case: 'offline' }],
    ['online but no state reported', seen(5), { case: 'offline' }],
    ['seen 100 s ago', seen(100, { case: 'on' }), { case: 'offline' }],
    ['seen 500 s ago', seen(500, { case: 'off' }), { case: 'offline' }],
    ['seen 99 s ago, on', seen(99, { case: 'on' }), { case: 'filterOn' }],
    ['on', seen(0, { case: 'on' }), { case: 'filterOn' }],
    ['off', seen(10, { case: 'off' }), { case: 'filterOff' }],
    [
      'suspended',
      seen(10, { case: 'suspended', resuming: '2024-03-04T15:15:00.000Z' }),
      { case: 'filterSuspended', resuming: '2024-03-04T15:15:00.000Z' },
    ],
    [
      'downtime',
      seen(10, { case: 'downtime', ending: '2024-03-05T05:00:00.000Z' }),
      { case: 'downtime', ending: '2024-03-05T05:00:00.000Z' },
    ],
    [
      'downtime paused',
      seen(10, { case: 'downtimePaused', resuming: '2024-03-04T15:30:00.000Z' }),
      { case: 'downtimePaused', resuming: '2024-03-04T15:30:00.000Z' },
    ],
    [
      'ISO string last seen',
      { lastSeenAt: '2024-03-04T14:59:30.000Z', filterState: { case: 'on' } },
      { case: 'filterOn' },
    ],
    [
      'unreadable last seen',
      { lastSeenAt: 'garbage', filterState: { case: 'on' } },
      { case: 'offline' },
    ],
  ])('%s', (_name, presence, expected) => {
    expect(computerUserStatus(presence, now)).toEqual(expected);
  });
});

describe('childStatus', () => {
  const on = { case: 'filterOn' } as const;
  const off = { case: 'filterOff' } as const;
  const offline = { case: 'offline' } as const;
  const suspended = (resuming?: string): ChildComputerStatus =>
    resuming ? { case: 'filterSuspended', resuming } : { case: 'filterSuspended' };
  const downtime = (ending: string): ChildComputerStatus => ({ case: 'downtime', ending });
  const paused = (resuming: string): ChildComputerStatus => ({ case: 'downtimePaused', resuming });

  test.each<[string, ChildComputerStatus[], ChildComputerStatus]>([
    ['no computers', [], offline],
    ['one computer', [off], off],
    ['all on', [on, on, on], on],
    ['all offline', [offline, offline], offline],
    ['on and offline → offline', [on, offline], offline],
    ['off beats everything', [on, suspended('2024-03-04T16:00:00.000Z'), off, offline], off],
    ['suspended beats downtime', [downtime('2024-03-05T05:00:00.000Z'), suspended()], suspended()],
    [
      'paused downtime beats downtime',
      [downtime('2024-03-05T05:00:00.000Z'), paused('2024-03-04T16:00:00.000Z')],
      paused('2024-03-04T16:00:00.000Z'),
    ],
    [
      'downtime beats offline',
      [offline, downtime('2024-03-05T05:00:00.000Z')],
      downtime('2024-03-05T05:00:00.000Z'),
    ],
    [
      'two suspensions → the latest resume',
      [suspended('2024-03-04T16:00:00.000Z'), suspended('2024-03-04T15:20:00.000Z')],
      suspended('2024-03-04T16:00:00.000Z'),
    ],
    [
      'a suspension without a date keeps the known date',
      [suspended(), suspended('2024-03-04T15:20:00.000Z')],
      suspended('2024-03-04T15:20:00.000Z'),
    ],
    ['suspensions without dates', [suspended(), suspended()], suspended()],
    [
      'two downtimes → the earliest end',
      [downtime('2024-03-05T06:00:00.000Z'), downtime('2024-03-05T05:00:00.000Z')],
      downtime('2024-03-05T05:00:00.000Z'),
    ],
    [
      'two paused downtimes → the latest resume',
      [paused('2024-03-04T15:10:00.000Z'), paused('2024-03-04T15:40:00.000Z'), on],
      paused('2024-03-04T15:40:00.000Z'),
    ],
  ])('%s', (_name, statuses, expected) => {
    expect(childStatus(statuses)).toEqual(expected);
  });
});

describe('statusLabel', () => {
  const formatTime = (iso: string) => `<${iso.slice(11, 16)}>`;
  test.each<[ChildComputerStatus, string]>([
    [{ case: 'filterOn' }, 'Filter on'],
    [{ case: 'filterOff' }, 'Filter off'],
    [{ case: 'offline' }, 'Offline'],
    [{ case: 'filterSuspended' }, 'Filter suspended'],
    [
      { case: 'filterSuspended', resuming: '2024-03-04T15:15:00.000Z' },
      'Filter suspended until <15:15>',
    ],
    [{ case: 'downtime', ending: '2024-03-05T05:00:00.000Z' }, 'Downtime until <05:00>'],
    [{ case: 'downtime' }, 'Downtime'],
    [
      { case: 'downtimePaused', resuming: '2024-03-04T16:00:00.000Z' },
      'Downtime paused until <16:00>',
    ],
  ])('%j → %j', (status, expected) => {
    expect(statusLabel(status, formatTime)).toBe(expected);
  });
});
