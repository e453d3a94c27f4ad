import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AppToServerMessage,
  CheckInOutput,
  FilterState,
  fromServerToAppMessage,
  isMacosAppOperation,
  type MacosAppInput,
  type MacosAppOperation,
  type MacosAppOutput,
  macosApp,
  macosAppOperationNames,
  ServerToAppMessage,
  toAppToServerMessage,
  toServerToAppMessage,
} from '../src/device.ts';
import { macApp, macPushFromApp, macPushFromServer } from '../src/swift-apps.ts';
import { decodeSwift } from '../src/swift-codable.ts';
import { toSwiftReferenceSeconds } from '../src/swift.ts';
import { downtime, ids, schedule, sharedKey, success } from './fixtures.ts';

// The Mac device API is the Mac app's wire (docs/device-wire.md): every example answer the
// contract accepts must also decode as the app decodes it (swift-apps.ts), and every example
// request must be one the app's JSONEncoder could have written.

const at = '2024-03-06T05:00:00Z';
const atSeconds = toSwiftReferenceSeconds(at);

const userData = {
  id: ids.child,
  token: ids.token,
  deviceId: ids.computerUser,
  name: 'Lily',
  keyloggingEnabled: true,
  screenshotsEnabled: true,
  screenshotFrequency: 120,
  screenshotSize: 1000,
  downtime,
  blockedApps: [{ id: ids.app, identifier: 'com.valvesoftware.steam', schedule }],
  connectedAt: at,
};

const checkInInput = {
  appVersion: '2.7.1',
  filterVersion: '2.7.1',
  userIsAdmin: false,
  pendingFilterSuspension: ids.suspension.toUpperCase(),
  pendingUnlockRequests: [ids.unlock.toUpperCase()],
  namedApps: [
    { pid: 812, bundleId: 'com.valvesoftware.steam', localizedName: 'Steam', launchable: true },
  ],
};

const checkInStable = {
  adminAccountStatus: 'active' as const,
  appManifest: {
    apps: { steam: ['com.valvesoftware.steam'] },
    displayNames: { steam: 'Steam' },
    categories: { games: ['steam'] },
  },
  browsers: [{ bundleId: { _0: 'com.apple.Safari' } }],
  latestRelease: {
    semver: '2.8.0',
    pace: { nagOn: '2024-03-13T05:00:00Z', requireOn: '2024-03-20T05:00:00Z' },
  },
  updateReleaseChannel: 'stable' as const,
  userData,
  resolvedFilterSuspension: {
    id: ids.suspension,
    decision: { accepted: { duration: 600, extraMonitoring: { setScreenshotFreq: { _0: 60 } } } },
  },
  resolvedUnlockRequests: [
    { id: ids.unlock, status: 'accepted' as const, target: 'khanacademy.org', comment: 'ok' },
  ],
};

type Examples = {
  [Op in MacosAppOperation]: { input: MacosAppInput<Op>; output: MacosAppOutput<Op> };
};

const examples: Examples = {
  ConnectUser: {
    input: {
      verificationCode: 482913,
      appVersion: '2.7.1',
      modelIdentifier: 'MacBookPro16,1',
      username: 'lily',
      fullUsername: 'Lily Smith',
      numericId: 502,
      serialNumber: 'C02XL0GJJGH5',
      osVersion: '14.4.1',
      isAdmin: false,
    },
    output: userData,
  },
  CheckIn_v2: {
    input: checkInInput,
    output: {
      ...checkInStable,
      keychains: [{ id: ids.keychain, schedule, keys: [{ id: ids.key, key: sharedKey }] }],
      trustedTime: 1709701200.25,
    },
  },
  CheckIn: {
    input: checkInInput,
    output: { ...checkInStable, keys: [{ id: ids.key, key: sharedKey }] },
  },
  Heartbeat: {
    input: { currentFilterState_v2: { _0: { suspended: { resuming: atSeconds } } } },
    output: success,
  },
  TrustedTime: { input: undefined, output: 1709701200.25 },
  RecentAppVersions: { input: undefined, output: { '2.8.0': '2.8.0 (beta)', '2.7.5': '2.7.5' } },
  CreateUnlockRequests_v3: {
    input: {
      blockedRequests: [
        {
          bundleId: 'com.apple.Safari',
          url: 'https://khanacademy.org/x',
          hostname: 'khanacademy.org',
        },
        { bundleId: 'com.zoom.xos', ipAddress: '203.0.113.9' },
      ],
      comment: 'for school',
    },
    output: [ids.unlock, ids.key],
  },
  CreateSuspendFilterRequest_v2: {
    input: { duration: 1800, comment: 'zoom' },
    output: ids.suspension,
  },
  CreateSignedScreenshotUpload: {
    input: { width: 1000, height: 625, filterSuspended: false, createdAt: atSeconds },
    output: {
      uploadUrl: 'http://localhost:8080/screenshots/a.jpg?sig=1',
      webUrl: 'http://localhost:8080/screenshots/a.jpg?sig=2',
    },
  },
  CreateKeystrokeLines: {
    input: [{ appName: 'Notes', line: 'hello', time: atSeconds }],
    output: success,
  },
  LogSecurityEvent: {
    input: { deviceId: ids.computerUser.toUpperCase(), event: 'appQuit', detail: 'quit' },
    output: success,
  },
  LogFilterEvents: {
    input: {
      bundleIds: { 'com.example.game': 3 },
      events: [{ id: 'e5c4d3b2', detail: 'proxy restarted' }, 2, { id: 'a1b2c3d4' }, 1],
    },
    output: {},
  },
  ReportBrowsers: {
    input: [{ name: 'Arc', bundleId: 'company.thebrowser.Browser' }],
    output: success,
  },
  LogInterestingEvent: {
    input: { eventId: '7f3e2a1b', kind: 'event', deviceId: ids.computerUser.toUpperCase() },
    output: success,
  },
};

describe('Mac device API', () => {
  it('has every operation the Mac app calls, with the app’s auth', () => {
    expect([...macosAppOperationNames].sort()).toEqual(Object.keys(examples).sort());
    for (const name of Object.keys(macApp) as (keyof typeof macApp)[]) {
      expect(isMacosAppOperation(name), name).toBe(true);
      const auth = macosApp[name as MacosAppOperation].auth;
      expect(auth, name).toBe(macApp[name].auth === 'user' ? 'device' : 'none');
      expect(macosApp[name as MacosAppOperation].input === null, name).toBe(
        macApp[name].input === null,
      );
    }
    // ours alone (not called by the apps): a filter state without a WebSocket
    expect(macosAppOperationNames.filter((name) => !(name in macApp))).toEqual(['Heartbeat']);
  });

  it.each(
    (Object.keys(macApp) as (keyof typeof macApp)[]).map((name) => [name, examples[name]] as const),
  )(
    '%s: the example request parses, and the answer decodes as the app decodes it',
    (name, example) => {
      const def = macosApp[name];
      const swift = macApp[name];
      if (def.input === null) expect(example.input).toBeUndefined();
      else {
        expect(def.input.safeParse(example.input).error).toBeUndefined();
        // a body the app's JSONEncoder writes: dates as reference-date numbers
        expect(() =>
          decodeSwift(swift.input!, example.input, { dates: 'deferredToDate' }),
        ).not.toThrow();
      }
      expect(def.output.safeParse(example.output).error).toBeUndefined();
      expect(() => decodeSwift(swift.output, example.output)).not.toThrow();
    },
  );

  it('treats null optional inputs as absent', () => {
    const parsed = macosApp.CheckIn_v2.input.parse({
      appVersion: '2.7.1',
      filterVersion: null,
      userIsAdmin: null,
      pendingFilterSuspension: null,
      namedApps: [{ bundleId: 'x', bundleName: null }],
    });
    expect(parsed).toStrictEqual({ appVersion: '2.7.1', namedApps: [{ bundleId: 'x' }] });
  });

  it('reads the app’s dates (seconds since 2001-01-01) as ISO dates', () => {
    const [line] = macosApp.CreateKeystrokeLines.input.parse([
      { appName: 'Notes', line: 'hi', time: 0 },
    ]);
    expect(line?.time).toBe('2001-01-01T00:00:00.000Z');
    expect(
      macosApp.CreateSignedScreenshotUpload.input.parse({
        width: 1,
        height: 1,
        createdAt: atSeconds,
      }).createdAt,
    ).toBe('2024-03-06T05:00:00.000Z');
  });

  it.each([
    [
      'ConnectUser without code',
      'ConnectUser',
      { ...examples.ConnectUser.input, verificationCode: undefined },
    ],
    [
      'ConnectUser app version over 12',
      'ConnectUser',
      { ...examples.ConnectUser.input, appVersion: '1.2.3-beta.456' },
    ],
    [
      'CheckIn pending ids over 1000',
      'CheckIn_v2',
      { appVersion: '1', pendingUnlockRequests: Array(1001).fill(ids.unlock) },
    ],
    ['unknown device message', 'Heartbeat', { ping: {} }],
    ['the server’s own `case` form', 'Heartbeat', { case: 'heartbeat' }],
    ['two cases at once', 'Heartbeat', { heartbeat: {}, goingOffline: {} }],
    ['filter state missing date', 'Heartbeat', { currentFilterState_v2: { _0: { downtime: {} } } }],
    [
      'filter state with an ISO date',
      'Heartbeat',
      { currentFilterState_v2: { _0: { suspended: { resuming: at } } } },
    ],
    [
      'unlock url over 2000',
      'CreateUnlockRequests_v3',
      { blockedRequests: [{ bundleId: 'x', url: `https://${'a'.repeat(2000)}` }] },
    ],
    [
      'keystroke line over 10000',
      'CreateKeystrokeLines',
      [{ appName: 'x', line: 'a'.repeat(10_001), time: atSeconds }],
    ],
    [
      'keystroke time as an ISO string',
      'CreateKeystrokeLines',
      [{ appName: 'x', line: 'a', time: at }],
    ],
    [
      'screenshot time as an ISO string',
      'CreateSignedScreenshotUpload',
      { width: 1, height: 1, createdAt: at },
    ],
    ['event over 255', 'LogSecurityEvent', { deviceId: ids.computerUser, event: 'e'.repeat(256) }],
    ['bad device id', 'LogSecurityEvent', { deviceId: 'mac-1', event: 'appQuit' }],
    ['negative duration', 'CreateSuspendFilterRequest_v2', { duration: -5 }],
    ['filter log count below zero', 'LogFilterEvents', { bundleIds: { x: -1 }, events: [] }],
  ] as const)('rejects %s', (_, name, value) => {
    const input = macosApp[name].input;
    expect(input?.safeParse(value).success).toBe(false);
  });

  it('lowercases uppercase UUIDs from the device', () => {
    const parsed = macosApp.LogSecurityEvent.input.parse({
      deviceId: ids.computerUser.toUpperCase(),
      event: 'appQuit',
    });
    expect(parsed.deviceId).toBe(ids.computerUser);
  });

  it('refuses answers the app could not decode', () => {
    const output = examples.CheckIn_v2.output;
    for (const broken of [
      { ...output, latestRelease: undefined },
      { ...output, trustedTime: '2024-03-06T05:00:00Z' },
      { ...output, userData: { ...userData, connectedAt: '2024-03-06T05:00:00.000Z' } },
      { ...output, userData: { ...userData, token: undefined } },
      { ...output, appManifest: { apps: [] } },
      { ...output, browsers: [{ name: 'Safari', bundleId: 'com.apple.Safari' }] },
      {
        ...output,
        resolvedFilterSuspension: {
          id: ids.suspension,
          decision: { case: 'accepted', durationInSeconds: 600 },
        },
      },
    ]) {
      expect(CheckInOutput.safeParse(broken).success).toBe(false);
      expect(() => decodeSwift(macApp.CheckIn_v2.output, broken)).toThrow();
    }
  });

  it('types void and bare outputs', () => {
    expectTypeOf<MacosAppInput<'TrustedTime'>>().toEqualTypeOf<undefined>();
    expectTypeOf<MacosAppOutput<'TrustedTime'>>().toEqualTypeOf<number>();
    expectTypeOf<MacosAppOutput<'CreateSuspendFilterRequest_v2'>>().toEqualTypeOf<string>();
  });
});

describe('push channel messages', () => {
  it.each([
    { case: 'off' },
    { case: 'on' },
    { case: 'suspended', resuming: '2024-03-06T05:00:00.000Z' },
    { case: 'downtime', ending: '2024-03-06T05:00:00.000Z' },
    { case: 'downtimePaused', resuming: '2024-03-06T05:00:00.000Z' },
  ] as const)('FilterState %o goes to the wire and back', (state) => {
    expect(FilterState.parse(state)).toEqual(state);
    const wire = toAppToServerMessage({ case: 'currentFilterState_v2', state });
    expect(() => decodeSwift(macPushFromApp, wire, { dates: 'deferredToDate' })).not.toThrow();
    expect(AppToServerMessage.parse(wire)).toEqual({ case: 'currentFilterState_v2', state });
  });

  it('reads every message the app sends', () => {
    expect(AppToServerMessage.parse({ goingOffline: {} })).toEqual({ case: 'goingOffline' });
    expect(AppToServerMessage.parse({ currentFilterState: { _0: 'suspended' } })).toEqual({
      case: 'currentFilterState_v2',
      state: { case: 'suspended' },
    });
    expect(toAppToServerMessage({ case: 'goingOffline' })).toEqual({ goingOffline: {} });
    expect(
      toAppToServerMessage({
        case: 'currentFilterState_v2',
        state: { case: 'suspended', resuming: at },
      }),
    ).toEqual({ currentFilterState_v2: { _0: { suspended: { resuming: atSeconds } } } });
  });

  it('sends every server message as the app decodes it, and reads it back', () => {
    const messages = [
      { case: 'userUpdated' },
      { case: 'userDeleted' },
      { case: 'currentFilterStateRequested' },
      { case: 'unlockRequestUpdated_v2', id: ids.unlock, status: 'rejected', target: 'x.com' },
      {
        case: 'filterSuspensionRequestDecided_v2',
        id: ids.suspension,
        decision: { rejected: {} },
        comment: 'not now',
      },
      {
        case: 'filterSuspensionRequestDecided_v2',
        id: ids.suspension,
        decision: { accepted: { duration: 300, extraMonitoring: { addKeylogging: {} } } },
      },
    ] as const;
    for (const message of messages) {
      const wire = toServerToAppMessage(message);
      expect(ServerToAppMessage.parse(wire)).toEqual(wire);
      expect(() => decodeSwift(macPushFromServer, wire)).not.toThrow();
      expect(fromServerToAppMessage(wire)).toEqual(message);
    }
    expect(toServerToAppMessage({ case: 'userUpdated' })).toEqual({ userUpdated: {} });
    expect(
      ServerToAppMessage.safeParse({ case: 'unlockRequestUpdated_v2', id: ids.unlock }).success,
    ).toBe(false);
    expect(ServerToAppMessage.safeParse({ userUpdated_v2: {} }).success).toBe(false);
  });
});
