import { describe, expect, test } from 'vitest';
import { UsageError } from '../src/args.ts';
import {
  type BlockedRequest,
  blockedRequestOf,
  formatRequests,
  formatSuspensionDecision,
  formatUnlockDecision,
  pendingIdsOf,
  recordSuspensionDecision,
  recordUnlockDecision,
  targetOf,
} from '../src/requests.ts';
import type { DeviceState } from '../src/state.ts';

const SAFARI = 'com.apple.Safari';

describe('blockedRequestOf', () => {
  test.each<[string, BlockedRequest]>([
    ['khanacademy.org', { bundleId: SAFARI, hostname: 'khanacademy.org' }],
    ['Scratch.MIT.edu', { bundleId: SAFARI, hostname: 'scratch.mit.edu' }],
    ['10.0.0.7', { bundleId: SAFARI, ipAddress: '10.0.0.7' }],
    ['2001:db8::1', { bundleId: SAFARI, ipAddress: '2001:db8::1' }],
    ['[2001:db8::1]', { bundleId: SAFARI, ipAddress: '2001:db8::1' }],
    [
      'https://www.khanacademy.org/math',
      {
        bundleId: SAFARI,
        url: 'https://www.khanacademy.org/math',
        hostname: 'www.khanacademy.org',
      },
    ],
    [
      'khanacademy.org/math',
      { bundleId: SAFARI, url: 'https://khanacademy.org/math', hostname: 'khanacademy.org' },
    ],
    [
      'http://10.0.0.7/admin',
      { bundleId: SAFARI, url: 'http://10.0.0.7/admin', ipAddress: '10.0.0.7' },
    ],
  ])('%s', (raw, expected) => {
    expect(blockedRequestOf(raw, SAFARI)).toEqual(expected);
  });

  test.each(['', '  ', 'not a host', 'https://'])('refuses %j', (raw) => {
    expect(() => blockedRequestOf(raw, SAFARI)).toThrow(UsageError);
  });

  test('the target is the url, else the host name, the IP, or the app', () => {
    expect(targetOf(blockedRequestOf('https://a.com/x', SAFARI))).toBe('https://a.com/x');
    expect(targetOf(blockedRequestOf('a.com', SAFARI))).toBe('a.com');
    expect(targetOf(blockedRequestOf('1.2.3.4', SAFARI))).toBe('1.2.3.4');
    expect(targetOf({ bundleId: 'us.zoom.xos' })).toBe('us.zoom.xos');
  });
});

describe('decision lines', () => {
  test.each<[Parameters<typeof formatUnlockDecision>[0], string]>([
    [
      { status: 'accepted', target: 'khanacademy.org' },
      'unlock request for khanacademy.org accepted',
    ],
    [
      { status: 'rejected', target: 'games.example.com', comment: 'not tonight' },
      'unlock request for games.example.com rejected: "not tonight"',
    ],
  ])('unlock %j', (decided, line) => {
    expect(formatUnlockDecision(decided)).toBe(line);
  });

  test.each<[Parameters<typeof formatSuspensionDecision>[0], string]>([
    [{ decision: { accepted: { duration: 1200 } } }, 'suspension request accepted: 20 minutes'],
    [
      {
        decision: {
          accepted: {
            duration: 1200,
            extraMonitoring: { addKeyloggingAndSetScreenshotFreq: { _0: 60 } },
          },
        },
      },
      'suspension request accepted: 20 minutes (extra monitoring: screenshots every minute + keylogging)',
    ],
    [
      {
        decision: { accepted: { duration: 5400, extraMonitoring: { addKeylogging: {} } } },
        comment: 'ok',
      },
      'suspension request accepted: 1 hour 30 minutes (extra monitoring: keylogging): "ok"',
    ],
    [
      { decision: { rejected: {} }, comment: 'homework first' },
      'suspension request rejected: "homework first"',
    ],
    [{ decision: { rejected: {} } }, 'suspension request rejected'],
  ])('suspension %j', (decided, line) => {
    expect(formatSuspensionDecision(decided)).toBe(line);
  });
});

function stateWithRequests(): DeviceState {
  return {
    serialNumber: 'C02TEST',
    facts: {
      appVersion: '2.6.0',
      modelIdentifier: 'MacBookAir10,1',
      username: 'child',
      fullUsername: 'Child',
      numericId: 501,
      osVersion: '14.5.0',
      isAdmin: false,
    },
    requests: {
      unlock: [
        { id: 'u1', target: 'khanacademy.org', bundleId: SAFARI, askedAt: 'T1', status: 'pending' },
        {
          id: 'u2',
          target: 'us.zoom.xos',
          bundleId: 'us.zoom.xos',
          askedAt: 'T1',
          status: 'pending',
        },
        {
          id: 'u3',
          target: 'old.example.com',
          bundleId: SAFARI,
          askedAt: 'T0',
          status: 'accepted',
        },
      ],
      suspension: [
        { id: 's1', durationSeconds: 600, askedAt: 'T0', decision: { rejected: {} } },
        { id: 's2', durationSeconds: 300, askedAt: 'T1' },
        { id: 's3', durationSeconds: 900, askedAt: 'T2' },
      ],
    },
  };
}

describe('the record of requests', () => {
  test('check-in asks about pending unlock requests and the newest undecided suspension', () => {
    expect(pendingIdsOf(stateWithRequests().requests)).toEqual({
      pendingUnlockRequests: ['u1', 'u2'],
      pendingFilterSuspension: 's3',
    });
    expect(pendingIdsOf(undefined)).toEqual({});
    expect(pendingIdsOf({ unlock: [], suspension: [] })).toEqual({});
  });

  test('a decision is recorded and told once', () => {
    const state = stateWithRequests();
    const decided = { id: 'u1', status: 'accepted' as const, target: 'khanacademy.org' };
    expect(recordUnlockDecision(state, decided)).toBe(
      'unlock request for khanacademy.org accepted',
    );
    expect(recordUnlockDecision(state, decided)).toBeUndefined();
    expect(state.requests?.unlock[0]?.status).toBe('accepted');

    const grant = { id: 's3', decision: { accepted: { duration: 600 } } };
    expect(recordSuspensionDecision(state, grant)).toBe('suspension request accepted: 10 minutes');
    expect(recordSuspensionDecision(state, grant)).toBeUndefined();
    expect(pendingIdsOf(state.requests)).toEqual({
      pendingUnlockRequests: ['u2'],
      pendingFilterSuspension: 's2',
    });
  });

  test('a decision on a request this Mac does not remember is still told', () => {
    const state = stateWithRequests();
    expect(
      recordUnlockDecision(state, { id: 'zz', status: 'rejected', target: 'x.com', comment: 'no' }),
    ).toBe('unlock request for x.com rejected: "no"');
  });

  test('the listing', () => {
    const state = stateWithRequests();
    recordUnlockDecision(state, {
      id: 'u2',
      status: 'rejected',
      target: 'us.zoom.xos',
      comment: 'no',
    });
    expect(formatRequests(state.requests)).toEqual([
      'Unlock requests:',
      '  T1  khanacademy.org: pending',
      '  T1  us.zoom.xos: rejected: "no"',
      '  T0  old.example.com: accepted',
      'Suspension requests:',
      '  T0  10 minutes: rejected',
      '  T1  5 minutes: pending',
      '  T2  15 minutes: pending',
    ]);
    expect(formatRequests(undefined)).toEqual(['This Mac has not asked for anything yet.']);
  });
});
