import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CheckInOutput,
  DeviceMessage,
  FilterState,
  isMacosAppOperation,
  type MacosAppInput,
  type MacosAppOperation,
  type MacosAppOutput,
  macosApp,
  macosAppOperationNames,
  ServerMessage,
} from '../src/device.ts';
import { at, downtime, ids, schedule, sharedKey, success } from './fixtures.ts';

const userData = {
  id: ids.child,
  name: 'Lily',
  keyloggingEnabled: true,
  screenshotsEnabled: true,
  screenshotFrequency: 120,
  screenshotSize: 1000,
  downtime,
  blockedApps: [{ id: ids.app, identifier: 'com.valvesoftware.steam', schedule }],
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
    output: { ...userData, token: ids.token, deviceId: ids.computerUser, connectedAt: at },
  },
  CheckIn_v2: {
    input: {
      appVersion: '2.7.1',
      filterVersion: '2.7.1',
      pendingFilterSuspension: ids.suspension,
      pendingUnlockRequests: [ids.unlock],
      namedApps: [
        { bundleId: 'com.valvesoftware.steam', localizedName: 'Steam', launchable: true },
      ],
    },
    output: {
      adminAccountStatus: 'active',
      appManifest: {
        apps: [
          {
            slug: 'steam',
            name: 'Steam',
            bundleIds: ['com.valvesoftware.steam'],
            category: 'Games',
          },
        ],
      },
      browsers: [{ name: 'Safari', bundleId: 'com.apple.Safari' }],
      keychains: [{ id: ids.keychain, schedule, keys: [{ id: ids.key, key: sharedKey }] }],
      latestRelease: {
        semver: '2.8.0',
        channel: 'stable',
        releasedOn: at,
        nagOn: '2024-03-13T05:00:00Z',
        requireOn: '2024-03-20T05:00:00Z',
      },
      updateReleaseChannel: 'stable',
      userData,
      resolvedFilterSuspension: {
        id: ids.suspension,
        decision: { case: 'accepted', durationInSeconds: 600, extraMonitoring: '@60' },
      },
      resolvedUnlockRequests: [
        { id: ids.unlock, status: 'accepted', target: 'khanacademy.org', comment: 'ok' },
      ],
      trustedTime: at,
    },
  },
  Heartbeat: {
    input: { case: 'currentFilterState_v2', state: { case: 'suspended', resuming: at } },
    output: success,
  },
  TrustedTime: { input: undefined, output: at },
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
    input: { width: 1000, height: 625, filterSuspended: false, createdAt: at },
    output: {
      uploadUrl: 'http://localhost:8080/screenshots/a.png?sig=1',
      webUrl: 'http://localhost:8080/screenshots/a.png?sig=2',
    },
  },
  CreateKeystrokeLines: {
    input: [{ appName: 'Notes', line: 'hello', time: '2024-03-06T05:00:00Z' }],
    output: success,
  },
  LogSecurityEvent: {
    input: { deviceId: ids.computerUser, event: 'appQuit', detail: 'quit from dock' },
    output: success,
  },
};

describe('Mac device API', () => {
  it('lists the operations of server-behaviour §4 with their auth modes', () => {
    expect([...macosAppOperationNames].sort()).toEqual(Object.keys(examples).sort());
    expect(macosAppOperationNames.filter((name) => macosApp[name].auth === 'none').sort()).toEqual([
      'ConnectUser',
      'TrustedTime',
    ]);
    expect(macosApp.TrustedTime.input).toBeNull();
    expect(isMacosAppOperation('CheckIn_v2')).toBe(true);
    expect(isMacosAppOperation('CheckIn')).toBe(false);
  });

  it.each(macosAppOperationNames.map((name) => [name, examples[name]] as const))(
    '%s: example request and response parse',
    (name, example) => {
      const def = macosApp[name];
      if (def.input === null) expect(example.input).toBeUndefined();
      else expect(def.input.safeParse(example.input).error).toBeUndefined();
      expect(def.output.safeParse(example.output).error).toBeUndefined();
    },
  );

  it('treats null optional inputs as absent', () => {
    const parsed = macosApp.CheckIn_v2.input.parse({
      appVersion: '2.7.1',
      filterVersion: null,
      isAdmin: null,
      pendingFilterSuspension: null,
      namedApps: [{ bundleId: 'x', bundleName: null }],
    });
    expect(parsed).toStrictEqual({ appVersion: '2.7.1', namedApps: [{ bundleId: 'x' }] });
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
    ['unknown device message', 'Heartbeat', { case: 'ping' }],
    [
      'filter state missing date',
      'Heartbeat',
      { case: 'currentFilterState_v2', state: { case: 'downtime' } },
    ],
    ['wrapped filter state', 'Heartbeat', { case: 'currentFilterState_v2', state: { on: {} } }],
    [
      'unlock url over 2000',
      'CreateUnlockRequests_v3',
      { blockedRequests: [{ bundleId: 'x', url: `https://${'a'.repeat(2000)}` }] },
    ],
    [
      'keystroke line over 10000',
      'CreateKeystrokeLines',
      [{ appName: 'x', line: 'a'.repeat(10_001), time: at }],
    ],
    ['keystroke time not ISO', 'CreateKeystrokeLines', [{ appName: 'x', line: 'a', time: 'now' }]],
    ['event over 255', 'LogSecurityEvent', { deviceId: ids.computerUser, event: 'e'.repeat(256) }],
    ['bad device id', 'LogSecurityEvent', { deviceId: 'mac-1', event: 'appQuit' }],
    ['negative duration', 'CreateSuspendFilterRequest_v2', { duration: -5 }],
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

  it('rejects null optional outputs', () => {
    const output = examples.CheckIn_v2.output;
    expect(CheckInOutput.safeParse({ ...output, latestRelease: null }).success).toBe(false);
    const { latestRelease: _, resolvedFilterSuspension: __, ...upToDate } = output;
    expect(CheckInOutput.safeParse(upToDate).success).toBe(true);
  });

  it('types void and bare outputs', () => {
    expectTypeOf<MacosAppInput<'TrustedTime'>>().toEqualTypeOf<undefined>();
    expectTypeOf<MacosAppOutput<'CreateSuspendFilterRequest_v2'>>().toEqualTypeOf<string>();
  });
});

describe('push channel messages', () => {
  it.each([
    { case: 'off' },
    { case: 'on' },
    { case: 'suspended', resuming: at },
    { case: 'downtime', ending: at },
    { case: 'downtimePaused', resuming: '2024-03-06T05:00:00Z' },
  ])('FilterState %o', (state) => {
    expect(FilterState.parse(state)).toEqual(state);
  });

  it('parses every device message', () => {
    for (const message of [
      { case: 'heartbeat' },
      { case: 'goingOffline' },
      { case: 'currentFilterState_v2', state: { case: 'on' } },
    ]) {
      expect(DeviceMessage.parse(message)).toEqual(message);
    }
  });

  it('parses every server message and rejects wrong ones', () => {
    const messages = [
      { case: 'userUpdated' },
      { case: 'userDeleted' },
      { case: 'unlockRequestUpdated_v2', id: ids.unlock, status: 'rejected', target: 'x.com' },
      {
        case: 'filterSuspensionRequestDecided_v2',
        id: ids.suspension,
        decision: { case: 'rejected' },
        comment: 'not now',
      },
    ];
    for (const message of messages) expect(ServerMessage.parse(message)).toEqual(message);
    expect(
      ServerMessage.safeParse({
        case: 'filterSuspensionRequestDecided_v2',
        id: ids.suspension,
        decision: 'rejected',
      }).success,
    ).toBe(false);
    expect(
      ServerMessage.safeParse({
        case: 'unlockRequestUpdated_v2',
        id: ids.unlock,
        status: 'accepted',
      }).success,
    ).toBe(false);
    expect(ServerMessage.safeParse({ case: 'userUpdated_v2' }).success).toBe(false);
  });
});
