import type { ChildComputerStatus } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { liveStatusInterval, macStatusesOf, OFFLINE_POLL_MS, ONLINE_POLL_MS } from './live-status';

const on: ChildComputerStatus = { case: 'filterOn' };
const off: ChildComputerStatus = { case: 'offline' };
const suspended: ChildComputerStatus = {
  case: 'filterSuspended',
  resuming: '2025-01-15T12:20:00.000Z',
};

describe('liveStatusInterval', () => {
  test.each([
    [undefined, OFFLINE_POLL_MS],
    [[], OFFLINE_POLL_MS],
    [[off, off], OFFLINE_POLL_MS],
    [[off, on], ONLINE_POLL_MS],
    [[suspended], ONLINE_POLL_MS],
    [[{ case: 'filterOff' } as ChildComputerStatus], ONLINE_POLL_MS],
  ])('%j → %i ms', (statuses, expected) => {
    expect(liveStatusInterval(statuses)).toBe(expected);
  });
});

describe('macStatusesOf', () => {
  test('children’s devices and computers’ users', () => {
    expect(macStatusesOf([{ devices: [{ status: on }] }, { devices: [] }])).toEqual([on]);
    expect(macStatusesOf([{ users: [{ status: off }, { status: suspended }] }])).toEqual([
      off,
      suspended,
    ]);
    expect(macStatusesOf(undefined)).toBeUndefined();
  });
});
