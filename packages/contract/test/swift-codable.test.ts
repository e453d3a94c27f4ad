import { describe, expect, test } from 'vitest';
import {
  AppIdManifest,
  BlockRule,
  FilterLogs,
  FilterSuspensionDecision,
  IOS_APP_VERSION,
  iosApp,
  Key,
  LegacyBlockRule,
  MAC_APP_VERSION,
  macApp,
  macPushFromApp,
  macPushFromServer,
  SWIFT_SOURCE_COMMIT,
  UserData,
  WebContentFilterPolicy,
} from '../src/swift-apps.ts';
import {
  type AnyType,
  decodeSwift,
  decodeSwiftText,
  encodeSwift,
  SWIFT_REFERENCE_DATE_OFFSET,
  SwiftDecodingError,
  t,
} from '../src/swift-codable.ts';

const ID = '3f2a0c7e-1b2c-4d3e-8f40-5a6b7c8d9e0f';
const ID_UPPER = ID.toUpperCase();

const userData = {
  id: ID,
  token: ID,
  deviceId: ID,
  name: 'Lily',
  keyloggingEnabled: false,
  screenshotsEnabled: true,
  screenshotFrequency: 60,
  screenshotSize: 1000,
  connectedAt: '2026-11-26T10:21:19Z',
};

function failure(type: AnyType, json: unknown, options?: { dates?: 'deferredToDate' }) {
  try {
    decodeSwift(type, json, options);
  } catch (error) {
    if (error instanceof SwiftDecodingError) return error;
    throw error;
  }
  throw new Error(`decoded without error: ${JSON.stringify(json)}`);
}

describe('decodeSwift: each rule the Swift decoder applies', () => {
  const fails: [string, AnyType, unknown, string][] = [
    [
      'a missing non-optional key',
      t.struct({ userData: UserData }),
      { userData: { ...userData, connectedAt: undefined } },
      'userData.connectedAt: missing key `connectedAt` (Date)',
    ],
    [
      'null for a non-optional key',
      UserData,
      { ...userData, name: null },
      'name: expected String, got null',
    ],
    [
      'a date with fractional seconds',
      t.struct({ userData: UserData }),
      { userData: { ...userData, connectedAt: '2026-11-26T10:21:19.123Z' } },
      'userData.connectedAt: expected ISO-8601 date without fractional seconds, got "2026-11-26T10:21:19.123Z"',
    ],
    [
      'a date without a timezone',
      UserData,
      { ...userData, connectedAt: '2026-11-26T10:21:19' },
      'connectedAt: expected ISO-8601 date without fractional seconds, got "2026-11-26T10:21:19"',
    ],
    [
      'a date as a number when answers use .iso8601',
      UserData,
      { ...userData, connectedAt: 786_000_000 },
      'connectedAt: expected Date (an ISO-8601 string), got 786000000',
    ],
    [
      'an impossible calendar date',
      UserData,
      { ...userData, connectedAt: '2026-02-30T10:21:19Z' },
      'connectedAt: expected ISO-8601 date without fractional seconds, got "2026-02-30T10:21:19Z"',
    ],
    [
      'a {"case": …} object where a synthesized enum is expected',
      FilterSuspensionDecision,
      { case: 'accepted', duration: 300 },
      '(root): expected exactly one case key of FilterSuspensionDecision, found none of rejected, accepted',
    ],
    [
      'two case keys in a synthesized enum object',
      FilterSuspensionDecision,
      { accepted: { duration: 300 }, rejected: {} },
      '(root): expected exactly one case key of FilterSuspensionDecision, found accepted, rejected',
    ],
    [
      'a bare string for a case without values',
      FilterSuspensionDecision,
      'rejected',
      '(root): expected FilterSuspensionDecision (an object with one case key), got "rejected"',
    ],
    [
      'null as the values of a case',
      FilterSuspensionDecision,
      { rejected: null },
      'rejected: expected the values of case rejected (an object), got null',
    ],
    [
      'a missing labelled value',
      FilterSuspensionDecision,
      { accepted: {} },
      'accepted.duration: missing key `duration` (Int)',
    ],
    [
      'a nested unlabelled value under another name',
      FilterSuspensionDecision,
      { accepted: { duration: 300, extraMonitoring: { setScreenshotFreq: 40 } } },
      'accepted.extraMonitoring.setScreenshotFreq: expected the values of case setScreenshotFreq (an object), got 40',
    ],
    [
      '1.5 for an Int',
      t.struct({ n: t.int() }),
      { n: 1.5 },
      'n: expected Int (an integral number), got 1.5',
    ],
    ['a string for an Int', t.int(), '3', '(root): expected Int (an integral number), got "3"'],
    [
      'a pid beyond Int32',
      t.int32(),
      2 ** 31,
      '(root): expected Int32 (an integral number that fits 32 bits), got 2147483648',
    ],
    ['1 for a Bool', t.bool(), 1, '(root): expected Bool (true or false), got 1'],
    ['a number for a String', t.string(), 5, '(root): expected String, got 5'],
    [
      'a malformed UUID',
      t.uuid(),
      '3f2a0c7e1b2c4d3e8f405a6b7c8d9e0f',
      '(root): expected a UUID string (8-4-4-4-12 hex), got "3f2a0c7e1b2c4d3e8f405a6b7c8d9e0f"',
    ],
    ['a relative URL', t.url(), '/upload/1', '(root): expected an absolute URL, got "/upload/1"'],
    [
      'an unknown raw value of a raw enum',
      t.rawEnum(['stable', 'beta', 'canary'], 'ReleaseChannel'),
      'nightly',
      '(root): cannot initialize ReleaseChannel from invalid String value "nightly"',
    ],
    [
      'an array where a struct is expected',
      UserData,
      [],
      '(root): expected UserData (an object), got an array',
    ],
    [
      'an array where a [String: V] dictionary is expected',
      AppIdManifest,
      { apps: [], displayNames: {}, categories: {} },
      'apps: expected [String: Set<String>] (an object), got an array',
    ],
    [
      'a string date where an input Date number is expected (decoding an input)',
      macApp.CreateKeystrokeLines.input,
      [{ appName: 'Notes', line: 'hi', time: '2026-11-26T10:21:19Z' }],
      '[0].time: expected Date (a number of seconds since 2001-01-01), got "2026-11-26T10:21:19Z"',
    ],
    [
      'a key whose type is unknown',
      Key,
      { type: 'regex', scope: { type: 'unrestricted' } },
      'type: unknown Key type "regex"',
    ],
    [
      'a Key whose domain Swift refuses',
      Key,
      { type: 'domain', domain: 'example.com/path', scope: { type: 'webBrowsers' } },
      '(root): invalid domain string example.com/path for Key',
    ],
    [
      'an AppScope without its type',
      Key,
      { type: 'domain', domain: 'example.com', scope: { single: { bundleId: 'x' } } },
      'scope.type: missing key `type` (String)',
    ],
    [
      'a flowTypeIs value as a bare string (the Swift typescriptAlias is not the wire)',
      BlockRule,
      { case: 'flowTypeIs', value: 'browser' },
      'value: expected FlowType (an object with one case key), got "browser"',
    ],
    [
      'a FilterLogs events object instead of a flat array',
      FilterLogs,
      { bundleIds: {}, events: { x: 1 } },
      'events: expected [FilterLogs.Event: Int] (a flat key, value array), got an object',
    ],
  ];
  for (const [what, type, json, message] of fails) {
    test(`fails: ${what}`, () => {
      const options = what.includes('decoding an input')
        ? { dates: 'deferredToDate' as const }
        : {};
      expect(failure(type, json, options).message).toBe(message);
    });
  }

  test('error kinds follow Swift: keyNotFound, valueNotFound, typeMismatch, dataCorrupted', () => {
    expect(failure(UserData, { ...userData, id: undefined }).kind).toBe('keyNotFound');
    expect(failure(UserData, { ...userData, id: null }).kind).toBe('valueNotFound');
    expect(failure(UserData, { ...userData, id: 7 }).kind).toBe('typeMismatch');
    expect(failure(UserData, { ...userData, id: 'nope' }).kind).toBe('dataCorrupted');
    expect(failure(UserData, undefined).kind).toBe('dataCorrupted');
    expect(() => decodeSwiftText(UserData, '{"id":')).toThrow(SwiftDecodingError);
  });

  test('paths name array indexes and enum cases', () => {
    const output = macApp.CheckIn_v2.output;
    const keychain = {
      id: ID,
      keys: [
        { id: ID, key: { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.x' } } },
        { id: ID, key: { type: 'skeleton', scope: { type: 'bundleId' } } },
      ],
    };
    const json = {
      adminAccountStatus: 'active',
      appManifest: { apps: {}, displayNames: {}, categories: {} },
      keychains: [keychain],
      latestRelease: { semver: '2.7.5' },
      updateReleaseChannel: 'stable',
      userData,
      browsers: [],
      trustedTime: 1,
    };
    expect(failure(output, json).message).toBe(
      'keychains[0].keys[1].key.scope.bundleId: missing key `bundleId` (String)',
    );
  });

  test('every valid form passes', () => {
    const valid: [AnyType, unknown][] = [
      [UserData, userData],
      // optional keys missing or null, unknown keys ignored
      [UserData, { ...userData, downtime: null, blockedApps: null, extra: { anything: 1 } }],
      [UserData, { ...userData, connectedAt: '2026-11-26T11:21:19+01:00' }],
      [UserData, { ...userData, id: ID_UPPER }],
      [t.int(), 1.0],
      [t.double(), 1.5],
      [t.double(), 3],
      [FilterSuspensionDecision, { rejected: {} }],
      // a case's unknown values, and keys that name no case, are ignored (Swift's `allKeys`)
      [FilterSuspensionDecision, { rejected: { why: 'x' }, case: 'rejected' }],
      [FilterSuspensionDecision, { accepted: { duration: 300 } }],
      [
        FilterSuspensionDecision,
        { accepted: { duration: 300, extraMonitoring: { setScreenshotFreq: { _0: 40 } } } },
      ],
      [FilterSuspensionDecision, { accepted: { duration: 300, extraMonitoring: null } }],
      [WebContentFilterPolicy, { blockAdultAnd: { _0: ['a.com', 'a.com'] } }],
      [BlockRule, { case: 'flowTypeIs', value: { browser: {} } }],
      [
        BlockRule,
        {
          case: 'unless',
          rule: {
            case: 'both',
            a: { case: 'urlContains', value: 'x' },
            b: { case: 'targetContains', value: 'y' },
          },
          negatedBy: [{ case: 'hostnameEquals', value: 'z' }],
        },
      ],
      [
        LegacyBlockRule,
        {
          both: {
            _0: { bundleIdContains: { _0: 'a' } },
            _1: { flowTypeIs: { _0: { socket: {} } } },
          },
        },
      ],
      [
        Key,
        {
          type: 'path',
          path: 'example.com/a/*',
          scope: {
            type: 'single',
            single: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' },
          },
        },
      ],
      [Key, { type: 'ipAddress', ipAddress: '10.0.0.1', scope: { type: 'unrestricted' } }],
      [Key, { type: 'domainRegex', pattern: 'foo-*.com', scope: { type: 'webBrowsers' } }],
      [
        Key,
        { type: 'anySubdomain', domain: 'https://Example.com/', scope: { type: 'webBrowsers' } },
      ],
      [macApp.LogFilterEvents.output, {}],
      [macApp.TrustedTime.output, 786_000_000.123],
      [macApp.RecentAppVersions.output, { '2.7.5': '2026-01-01', '2.6.0': 'x' }],
      [iosApp.PollFilterSuspensionDecision.output, { pending: {} }],
      [iosApp.PollFilterSuspensionDecision.output, { denied: {} }],
      [macPushFromServer, { userUpdated: {} }],
      [
        macPushFromServer,
        {
          unlockRequestUpdated_v2: {
            id: ID,
            status: 'accepted',
            target: 'https://x.com',
            comment: 'ok',
          },
        },
      ],
    ];
    for (const [type, json] of valid) {
      expect(() => decodeSwift(type, json), JSON.stringify(json)).not.toThrow();
    }
  });

  test('decoded values: dates as Date, UUIDs upper case, enums with a case, optionals absent', () => {
    const decoded = decodeSwift(UserData, { ...userData, downtime: null, extra: 1 });
    expect(decoded).toEqual({
      ...userData,
      id: ID_UPPER,
      token: ID_UPPER,
      deviceId: ID_UPPER,
      connectedAt: new Date('2026-11-26T10:21:19Z'),
    });
    expect(
      decodeSwift(UserData, { ...userData, connectedAt: '2026-11-26T11:21:19+01:00' }).connectedAt,
    ).toEqual(new Date('2026-11-26T10:21:19Z'));
    expect(
      decodeSwift(macPushFromServer, {
        filterSuspensionRequestDecided_v2: {
          id: ID,
          decision: {
            accepted: { duration: 300, extraMonitoring: { setScreenshotFreq: { _0: 40 } } },
          },
        },
      }),
    ).toEqual({
      case: 'filterSuspensionRequestDecided_v2',
      id: ID_UPPER,
      decision: {
        case: 'accepted',
        duration: 300,
        extraMonitoring: { case: 'setScreenshotFreq', _0: 40 },
      },
    });
    expect(
      decodeSwift(FilterLogs, { bundleIds: { 'com.x': 2 }, events: [{ id: 'a' }, 3] }),
    ).toEqual({
      bundleIds: { 'com.x': 2 },
      events: [[{ id: 'a' }, 3]],
    });
  });

  test('deferredToDate reads a reference-date number (a request body, a websocket message)', () => {
    const message = { currentFilterState_v2: { _0: { suspended: { resuming: 786_000_000.5 } } } };
    expect(decodeSwift(macPushFromApp, message, { dates: 'deferredToDate' })).toEqual({
      case: 'currentFilterState_v2',
      _0: {
        case: 'suspended',
        resuming: new Date((786_000_000.5 + SWIFT_REFERENCE_DATE_OFFSET) * 1000),
      },
    });
    expect(decodeSwift(macPushFromApp, { currentFilterState: { _0: 'on' } })).toEqual({
      case: 'currentFilterState',
      _0: 'on',
    });
  });
});

describe('encodeSwift: what a default JSONEncoder writes', () => {
  test('a Date is seconds since 2001-01-01', () => {
    expect(encodeSwift(t.date(), new Date('2001-01-01T00:00:00Z'))).toBe(0);
    expect(encodeSwift(t.date(), new Date('2026-11-26T10:21:19.250Z'))).toBe(
      Date.parse('2026-11-26T10:21:19.250Z') / 1000 - 978_307_200,
    );
    expect(encodeSwift(t.date(), new Date('2026-11-26T10:21:19.250Z'), { dates: 'iso8601' })).toBe(
      '2026-11-26T10:21:19Z',
    );
  });

  test('UUIDs upper case, nil optionals omitted, Int32 and Bool as they are', () => {
    expect(
      encodeSwift(macApp.CheckIn_v2.input, {
        appVersion: MAC_APP_VERSION,
        filterVersion: undefined,
        pendingFilterSuspension: ID,
        pendingUnlockRequests: [ID],
        namedApps: [{ pid: 501, bundleId: 'com.apple.Safari', localizedName: 'Safari' }],
      }),
    ).toEqual({
      appVersion: '2.7.5',
      pendingFilterSuspension: ID_UPPER,
      pendingUnlockRequests: [ID_UPPER],
      namedApps: [{ pid: 501, bundleId: 'com.apple.Safari', localizedName: 'Safari' }],
    });
    expect(encodeSwift(iosApp.PollFilterSuspensionDecision.input, ID)).toBe(ID_UPPER);
  });

  test('FilterLogs events as a flat array alternating event and count', () => {
    expect(
      encodeSwift(FilterLogs, {
        bundleIds: { 'com.apple.Safari': 3 },
        events: [
          [{ id: 'a1b2', detail: 'blocked' }, 2],
          [{ id: 'c3d4' }, 1],
        ],
      }),
    ).toEqual({
      bundleIds: { 'com.apple.Safari': 3 },
      events: [{ id: 'a1b2', detail: 'blocked' }, 2, { id: 'c3d4' }, 1],
    });
  });

  test('synthesized enums: one key, labelled values, _0 for unlabelled, {} for none', () => {
    const resuming = new Date('2026-11-26T10:21:19Z');
    expect(
      encodeSwift(macPushFromApp, { case: 'currentFilterState_v2', _0: { case: 'on' } }),
    ).toEqual({
      currentFilterState_v2: { _0: { on: {} } },
    });
    expect(
      encodeSwift(macPushFromApp, {
        case: 'currentFilterState_v2',
        _0: { case: 'suspended', resuming },
      }),
    ).toEqual({
      currentFilterState_v2: { _0: { suspended: { resuming: 817_381_279 } } },
    });
    expect(encodeSwift(macPushFromApp, { case: 'goingOffline' })).toEqual({ goingOffline: {} });
    expect(encodeSwift(macPushFromApp, { case: 'currentFilterState', _0: 'on' })).toEqual({
      currentFilterState: { _0: 'on' },
    });
    expect(
      encodeSwift(FilterSuspensionDecision, {
        case: 'accepted',
        duration: 300,
        extraMonitoring: { case: 'addKeyloggingAndSetScreenshotFreq', _0: 40 },
      }),
    ).toEqual({
      accepted: {
        duration: 300,
        extraMonitoring: { addKeyloggingAndSetScreenshotFreq: { _0: 40 } },
      },
    });
    expect(encodeSwift(WebContentFilterPolicy, { case: 'blockAll' })).toEqual({ blockAll: {} });
  });

  test('hand-written codings keep their tag field', () => {
    expect(
      encodeSwift(Key, {
        type: 'skeleton',
        scope: { type: 'bundleId', bundleId: 'com.x' },
      }),
    ).toEqual({ type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.x' } });
    expect(encodeSwift(BlockRule, { case: 'flowTypeIs', value: { case: 'socket' } })).toEqual({
      case: 'flowTypeIs',
      value: { socket: {} },
    });
  });

  test('a value the Swift type cannot hold is refused', () => {
    expect(() => encodeSwift(t.uuid(), 'nope')).toThrow('not a UUID');
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong
    expect(() => encodeSwift(UserData, { name: 'x' } as any)).toThrow(
      'id: missing non-optional UUID',
    );
  });

  test('encode then decode round-trips (a default decoder reading a default encoder)', () => {
    const lines = [
      {
        appName: 'Notes',
        line: 'hello',
        filterSuspended: false,
        time: new Date('2026-11-26T10:21:19.5Z'),
      },
    ];
    const json = encodeSwift(macApp.CreateKeystrokeLines.input, lines);
    expect(
      decodeSwift(macApp.CreateKeystrokeLines.input, json, { dates: 'deferredToDate' }),
    ).toEqual(lines);
  });
});

describe('the apps', () => {
  test('versions and source', () => {
    expect(MAC_APP_VERSION).toBe('2.7.5');
    expect(IOS_APP_VERSION).toBe('1.5.0');
    expect(SWIFT_SOURCE_COMMIT).toBe('5238779b');
  });

  test('every operation is described', () => {
    expect(Object.keys(macApp).sort()).toEqual(
      [
        'CheckIn',
        'CheckIn_v2',
        'ConnectUser',
        'CreateKeystrokeLines',
        'CreateSignedScreenshotUpload',
        'CreateSuspendFilterRequest_v2',
        'CreateUnlockRequests_v3',
        'LogFilterEvents',
        'LogInterestingEvent',
        'LogSecurityEvent',
        'RecentAppVersions',
        'ReportBrowsers',
        'TrustedTime',
      ].sort(),
    );
    expect(Object.keys(iosApp).sort()).toEqual(
      [
        'BlockRules',
        'BlockRules_v2',
        'ConnectAccountFeatureFlag',
        'ConnectDevice',
        'ConnectedRules',
        'CreateSuspendFilterRequest',
        'DefaultBlockRules',
        'LogIOSEvent',
        'PollFilterSuspensionDecision',
        'RecoveryDirective',
        'ScreenshotUploadUrl',
      ].sort(),
    );
    expect(macApp.RecentAppVersions.input).toBeNull();
    expect(macApp.CheckIn_v2).toMatchObject({ auth: 'user', inUse: 'v2.5.0 - present' });
    expect(iosApp.ConnectedRules).toMatchObject({ auth: 'device', inUse: 'v1.5.0 - present' });
  });
});
