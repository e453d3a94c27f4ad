import { type AnyType, type SwiftType, t } from './swift-codable.ts';

// The reference product's device apps (gertrude-app/swift), their PairQL operations and push
// messages, written from the Swift source as `swift-codable` descriptors: what the apps send
// (`encodeSwift` of an input) and what they can read (`decodeSwift` of an output).
//
// - Mac: `POST /pairql/macos-app/{Op}`, `X-UserToken: <UUID>` for the child-authed operations
//   (MacAppRoute, AuthedUserRoute, UnauthedRoute); push channel `GET /app-websocket` with
//   `Authorization: Bearer <UUID>`, messages `WebSocketMessage.FromApiToApp` / `FromAppToApi`.
// - iOS: `POST /pairql/ios-app/{Op}`, `X-DeviceToken: <UUID>` for the authed operations.
// - A request body is the input from a default `JSONEncoder`; an operation without input sends
//   no body. The apps decode answers with `.iso8601` dates.
// - `inUse` is the operation's doc comment in the Swift source (null where it has none).

/** The Swift source these descriptors were written from. */
export const SWIFT_SOURCE_COMMIT = '5238779b';
/** The Mac app's version in that source (macapp/Xcode/Gertrude/Info.plist). */
export const MAC_APP_VERSION = '2.7.5';
/** The iOS app's version in that source (MARKETING_VERSION). */
export const IOS_APP_VERSION = '1.5.0';

export const MAC_PAIRQL_PATH = '/pairql/macos-app';
export const IOS_PAIRQL_PATH = '/pairql/ios-app';
export const MAC_USER_TOKEN_HEADER = 'X-UserToken';
export const IOS_DEVICE_TOKEN_HEADER = 'X-DeviceToken';
export const MAC_WEBSOCKET_PATH = '/app-websocket';
/** `WebSocketMessage.ErrorCode.userTokenNotFound`: the close code for an unknown token. */
export const WEBSOCKET_USER_TOKEN_NOT_FOUND = 4999;

export interface AppOperation {
  /** `user`: `X-UserToken` (Mac, `ClientAuth.child`); `device`: `X-DeviceToken` (iOS). */
  auth: 'none' | 'user' | 'device';
  /** null: `NoInput`, the request has no body. */
  input: AnyType | null;
  output: AnyType;
  inUse: string | null;
  deprecated?: true;
}

// ---------------------------------------------------------------------------
// PairQL

/** `SuccessOutput`, a `Pair`'s default output. */
export const SuccessOutput = t.struct({ success: t.bool() }, 'SuccessOutput');
/** `Infallible`: a struct without fields, encoded `{}`. */
export const Infallible = t.struct({}, 'Infallible');

// ---------------------------------------------------------------------------
// Gertie

export const PlainTime = t.struct({ hour: t.int(), minute: t.int() }, 'PlainTime');
export const PlainTimeWindow = t.struct({ start: PlainTime, end: PlainTime }, 'PlainTimeWindow');

export const RuleSchedule = t.struct(
  {
    mode: t.rawEnum(['active', 'inactive'], 'RuleSchedule.Mode'),
    days: t.struct(
      {
        sunday: t.bool(),
        monday: t.bool(),
        tuesday: t.bool(),
        wednesday: t.bool(),
        thursday: t.bool(),
        friday: t.bool(),
        saturday: t.bool(),
      },
      'RuleSchedule.Days',
    ),
    window: PlainTimeWindow,
  },
  'RuleSchedule',
);

export const BlockedApp = t.struct(
  { identifier: t.string(), schedule: t.optional(RuleSchedule) },
  'BlockedApp',
);

export const UserData = t.struct(
  {
    id: t.uuid(),
    token: t.uuid(),
    deviceId: t.uuid(),
    name: t.string(),
    keyloggingEnabled: t.bool(),
    screenshotsEnabled: t.bool(),
    screenshotFrequency: t.int(),
    screenshotSize: t.int(),
    downtime: t.optional(PlainTimeWindow),
    blockedApps: t.optional(t.array(BlockedApp)),
    connectedAt: t.date(),
  },
  'UserData',
);

/** Every key has a default value, but a `var` with one is still required when decoding. */
export const AppIdManifest = t.struct(
  {
    apps: t.dict(t.set(t.string())),
    displayNames: t.dict(t.string()),
    categories: t.dict(t.set(t.string())),
  },
  'AppIdManifest',
);

export const BrowserMatch = t.enumSynth(
  { bundleId: { _0: t.string() }, name: { _0: t.string() } },
  'BrowserMatch',
);

export const ReleaseChannel = t.rawEnum(['stable', 'beta', 'canary'], 'ReleaseChannel');
export const RequestStatus = t.rawEnum(['pending', 'accepted', 'rejected'], 'RequestStatus');
export const AdminAccountStatus = t.rawEnum(
  ['active', 'needsAttention', 'inactive'],
  'AdminAccountStatus',
);

export const ExtraMonitoring = t.enumSynth(
  {
    addKeylogging: {},
    setScreenshotFreq: { _0: t.int() },
    addKeyloggingAndSetScreenshotFreq: { _0: t.int() },
  },
  'FilterSuspensionDecision.ExtraMonitoring',
);

/** `duration` is `Seconds<Int>` (TaggedTime), a plain Int on the wire. */
export const FilterSuspensionDecision = t.enumSynth(
  {
    rejected: {},
    accepted: { duration: t.int(), extraMonitoring: t.optional(ExtraMonitoring) },
  },
  'FilterSuspensionDecision',
);

// Key, AppScope and AppScope.Single have hand-written codings: `{"type": <case>, …}`.

export const AppScopeSingle = t.tagged(
  'type',
  {
    identifiedAppSlug: { identifiedAppSlug: t.string() },
    bundleId: { bundleId: t.string() },
  },
  { name: 'AppScope.Single' },
);

export const AppScope = t.tagged(
  'type',
  { unrestricted: {}, webBrowsers: {}, single: { single: AppScopeSingle } },
  { name: 'AppScope' },
);

// What `URL(string:)` accepts, approximately: no whitespace, only URL characters.
const URL_CHARACTERS = /^[A-Za-z0-9\-._~:?#[\]@!$&'()*+,;=%]+$/;

/** `Key.Domain.init?(_:)`: an optional http(s):// and one trailing slash are dropped. */
export function isSwiftKeyDomain(input: string): boolean {
  let domain = input.startsWith('http') ? input.replace(/^https?:\/\//, '') : input;
  if (domain.endsWith('/')) domain = domain.slice(0, -1);
  return !domain.includes('/') && URL_CHARACTERS.test(domain);
}

function keyProblem(key: { type: string } & Record<string, unknown>): string | undefined {
  const text = (field: string) => String(key[field]);
  switch (key.type) {
    case 'domain':
    case 'anySubdomain':
      return isSwiftKeyDomain(text('domain'))
        ? undefined
        : `invalid domain string ${text('domain')} for Key`;
    case 'domainRegex': {
      const pattern = text('pattern');
      return pattern.includes('*') && isSwiftKeyDomain(pattern.replaceAll('*', 'a'))
        ? undefined
        : `invalid domain regex pattern string ${pattern} for Key`;
    }
    case 'path': {
      const path = text('path');
      const slash = path.indexOf('/');
      const valid = slash > 0 && path.length > slash + 1 && isSwiftKeyDomain(path.slice(0, slash));
      return valid ? undefined : `invalid path string ${path} for Key`;
    }
    case 'ipAddress': {
      const ip = text('ipAddress');
      const valid = /^\d+\.\d+\.\d+\.\d+/.test(ip) || /^[0-9a-zA-Z]*:[0-9a-zA-Z:%]*$/.test(ip);
      return valid ? undefined : `invalid ip string ${ip} for Key`;
    }
    default:
      return undefined;
  }
}

/** `Key`: the scope is decoded before the case's string, as the Swift `init(from:)` does. */
export const Key = t.tagged(
  'type',
  {
    domain: { scope: AppScope, domain: t.string() },
    anySubdomain: { scope: AppScope, domain: t.string() },
    skeleton: { scope: AppScopeSingle },
    domainRegex: { scope: AppScope, pattern: t.string() },
    path: { scope: AppScope, path: t.string() },
    ipAddress: { scope: AppScope, ipAddress: t.string() },
  },
  { name: 'Key', check: keyProblem },
);

export const RuleKey = t.struct({ id: t.uuid(), key: Key }, 'RuleKey');

export const RuleKeychain = t.struct(
  { id: t.uuid(), schedule: t.optional(RuleSchedule), keys: t.array(RuleKey) },
  'RuleKeychain',
);

export const RunningApp = t.struct(
  {
    pid: t.int32(),
    bundleId: t.string(),
    bundleName: t.optional(t.string()),
    localizedName: t.optional(t.string()),
    launchable: t.optional(t.bool()),
  },
  'RunningApp',
);

export const FilterLogsEvent = t.struct(
  { id: t.string(), detail: t.optional(t.string()) },
  'FilterLogs.Event',
);

/** `events: [Event: Int]` has a struct key: a flat array `[event, count, event, count]`. */
export const FilterLogs = t.struct(
  { bundleIds: t.dict(t.int()), events: t.pairDict(FilterLogsEvent, t.int()) },
  'FilterLogs',
);

export const FilterStateWithoutTimes = t.rawEnum(
  ['on', 'off', 'suspended', 'downtime', 'downtimePaused'],
  'FilterState.WithoutTimes',
);

export const FilterStateWithTimes = t.enumSynth(
  {
    on: {},
    off: {},
    suspended: { resuming: t.date() },
    downtime: { ending: t.date() },
    downtimePaused: { resuming: t.date() },
  },
  'FilterState.WithTimes',
);

/** `WebSocketMessage.FromApiToApp`: what the server pushes to the Mac. */
export const macPushFromServer = t.enumSynth(
  {
    currentFilterStateRequested: {},
    userDeleted: {},
    userUpdated: {},
    filterSuspensionRequestDecided_v2: {
      id: t.uuid(),
      decision: FilterSuspensionDecision,
      comment: t.optional(t.string()),
    },
    unlockRequestUpdated_v2: {
      id: t.uuid(),
      status: RequestStatus,
      target: t.string(),
      comment: t.optional(t.string()),
    },
  },
  'WebSocketMessage.FromApiToApp',
);

/** `WebSocketMessage.FromAppToApi`: what the Mac sends (`currentFilterState` deprecated). */
export const macPushFromApp = t.enumSynth(
  {
    currentFilterState: { _0: FilterStateWithoutTimes },
    currentFilterState_v2: { _0: FilterStateWithTimes },
    goingOffline: {},
  },
  'WebSocketMessage.FromAppToApi',
);

// ---------------------------------------------------------------------------
// GertieIOS

export const FlowType = t.enumSynth({ browser: {}, socket: {} }, 'FlowType');
type FlowTypeValue = { case: 'browser' } | { case: 'socket' };

/** `BlockRule` (current): hand-written coding `{"case": <name>, …}`; `FlowType` synthesized. */
export type BlockRuleValue =
  | { case: 'bundleIdContains'; value: string }
  | { case: 'urlContains'; value: string }
  | { case: 'hostnameContains'; value: string }
  | { case: 'hostnameEquals'; value: string }
  | { case: 'hostnameEndsWith'; value: string }
  | { case: 'targetContains'; value: string }
  | { case: 'flowTypeIs'; value: FlowTypeValue }
  | { case: 'both'; a: BlockRuleValue; b: BlockRuleValue }
  | { case: 'unless'; rule: BlockRuleValue; negatedBy: BlockRuleValue[] };

export const BlockRule: SwiftType<BlockRuleValue> = t.tagged(
  'case',
  {
    bundleIdContains: { value: t.string() },
    urlContains: { value: t.string() },
    hostnameContains: { value: t.string() },
    hostnameEquals: { value: t.string() },
    hostnameEndsWith: { value: t.string() },
    targetContains: { value: t.string() },
    flowTypeIs: { value: FlowType },
    both: { a: t.lazy(() => BlockRule, 'BlockRule'), b: t.lazy(() => BlockRule, 'BlockRule') },
    unless: {
      rule: t.lazy(() => BlockRule, 'BlockRule'),
      negatedBy: t.array(t.lazy(() => BlockRule, 'BlockRule')),
    },
  },
  { name: 'BlockRule' },
);

/** `BlockRule.Legacy`: synthesized coding, `{"both": {"_0": …, "_1": …}}`. */
export type LegacyBlockRuleValue =
  | { case: 'bundleIdContains'; _0: string }
  | { case: 'urlContains'; _0: string }
  | { case: 'hostnameContains'; _0: string }
  | { case: 'hostnameEquals'; _0: string }
  | { case: 'hostnameEndsWith'; _0: string }
  | { case: 'targetContains'; _0: string }
  | { case: 'flowTypeIs'; _0: FlowTypeValue }
  | { case: 'both'; _0: LegacyBlockRuleValue; _1: LegacyBlockRuleValue }
  | { case: 'unless'; rule: LegacyBlockRuleValue; negatedBy: LegacyBlockRuleValue[] };

const legacy = t.lazy(() => LegacyBlockRule, 'BlockRule.Legacy');
export const LegacyBlockRule: SwiftType<LegacyBlockRuleValue> = t.enumSynth(
  {
    bundleIdContains: { _0: t.string() },
    urlContains: { _0: t.string() },
    hostnameContains: { _0: t.string() },
    hostnameEquals: { _0: t.string() },
    hostnameEndsWith: { _0: t.string() },
    targetContains: { _0: t.string() },
    flowTypeIs: { _0: FlowType },
    both: { _0: legacy, _1: legacy },
    unless: { rule: legacy, negatedBy: t.array(legacy) },
  },
  'BlockRule.Legacy',
);

export const WebContentFilterPolicy = t.enumSynth(
  {
    allowAll: {},
    blockAdult: {},
    blockAdultAnd: { _0: t.set(t.string()) },
    blockAllExcept: { _0: t.set(t.string()) },
    blockAll: {},
  },
  'WebContentFilterPolicy',
);

export const BlockGroup = t.rawEnum(
  [
    'gifs',
    'appleMapsImages',
    'aiFeatures',
    'appStoreImages',
    'spotlightSearches',
    'ads',
    'whatsAppFeatures',
    'appleWebsite',
    'spotifyImages',
  ],
  'BlockGroup',
);

// ---------------------------------------------------------------------------
// Mac operations (pairql-macapp)

const LatestRelease = t.struct(
  {
    semver: t.string(),
    pace: t.optional(t.struct({ nagOn: t.date(), requireOn: t.date() }, 'LatestRelease.Pace')),
  },
  'CheckIn_v2.LatestRelease',
);

const ResolvedFilterSuspension = t.struct(
  { id: t.uuid(), decision: FilterSuspensionDecision, comment: t.optional(t.string()) },
  'CheckIn_v2.ResolvedFilterSuspension',
);

const ResolvedUnlockRequest = t.struct(
  {
    id: t.uuid(),
    status: RequestStatus,
    target: t.string(),
    comment: t.optional(t.string()),
  },
  'CheckIn_v2.ResolvedUnlockRequest',
);

const CheckInInput = t.struct(
  {
    appVersion: t.string(),
    filterVersion: t.optional(t.string()),
    userIsAdmin: t.optional(t.bool()),
    osVersion: t.optional(t.string()),
    pendingFilterSuspension: t.optional(t.uuid()),
    pendingUnlockRequests: t.optional(t.array(t.uuid())),
    namedApps: t.optional(t.array(RunningApp)),
  },
  'CheckIn_v2.Input',
);

export const macApp = {
  ConnectUser: {
    auth: 'none',
    input: t.struct(
      {
        verificationCode: t.int(),
        appVersion: t.string(),
        modelIdentifier: t.string(),
        username: t.string(),
        fullUsername: t.string(),
        numericId: t.int(),
        serialNumber: t.string(),
        osVersion: t.optional(t.string()),
        isAdmin: t.optional(t.bool()),
      },
      'ConnectUser.Input',
    ),
    output: UserData,
    inUse: 'v2.0.0 - present',
  },
  CheckIn: {
    auth: 'user',
    input: CheckInInput,
    output: t.struct(
      {
        adminAccountStatus: AdminAccountStatus,
        appManifest: AppIdManifest,
        keys: t.array(RuleKey),
        latestRelease: LatestRelease,
        updateReleaseChannel: ReleaseChannel,
        userData: UserData,
        browsers: t.array(BrowserMatch),
        resolvedFilterSuspension: t.optional(ResolvedFilterSuspension),
        resolvedUnlockRequests: t.optional(t.array(ResolvedUnlockRequest)),
      },
      'CheckIn.Output',
    ),
    inUse: 'v2.0.4 - v2.4.0',
    deprecated: true,
  },
  CheckIn_v2: {
    auth: 'user',
    input: CheckInInput,
    output: t.struct(
      {
        adminAccountStatus: AdminAccountStatus,
        appManifest: AppIdManifest,
        keychains: t.array(RuleKeychain),
        latestRelease: LatestRelease,
        updateReleaseChannel: ReleaseChannel,
        userData: UserData,
        browsers: t.array(BrowserMatch),
        resolvedFilterSuspension: t.optional(ResolvedFilterSuspension),
        resolvedUnlockRequests: t.optional(t.array(ResolvedUnlockRequest)),
        trustedTime: t.double(),
      },
      'CheckIn_v2.Output',
    ),
    inUse: 'v2.5.0 - present',
  },
  CreateKeystrokeLines: {
    auth: 'user',
    input: t.array(
      t.struct(
        {
          appName: t.string(),
          line: t.string(),
          filterSuspended: t.optional(t.bool()),
          time: t.date(),
        },
        'CreateKeystrokeLines.KeystrokeLineInput',
      ),
    ),
    output: SuccessOutput,
    inUse: 'v2.0.0 - present',
  },
  CreateSignedScreenshotUpload: {
    auth: 'user',
    input: t.struct(
      {
        width: t.int(),
        height: t.int(),
        filterSuspended: t.optional(t.bool()),
        createdAt: t.optional(t.date()),
      },
      'CreateSignedScreenshotUpload.Input',
    ),
    output: t.struct(
      { uploadUrl: t.url(), webUrl: t.url() },
      'CreateSignedScreenshotUpload.Output',
    ),
    inUse: 'v2.0.0 - present',
  },
  CreateSuspendFilterRequest_v2: {
    auth: 'user',
    input: t.struct(
      { duration: t.int(), comment: t.optional(t.string()) },
      'CreateSuspendFilterRequest_v2.Input',
    ),
    output: t.uuid(),
    inUse: 'v2.4.0 - present',
  },
  CreateUnlockRequests_v3: {
    auth: 'user',
    input: t.struct(
      {
        blockedRequests: t.array(
          t.struct(
            {
              bundleId: t.string(),
              url: t.optional(t.string()),
              hostname: t.optional(t.string()),
              ipAddress: t.optional(t.string()),
            },
            'CreateUnlockRequests_v3.Input.BlockedRequest',
          ),
        ),
        comment: t.optional(t.string()),
      },
      'CreateUnlockRequests_v3.Input',
    ),
    output: t.array(t.uuid()),
    inUse: 'v2.4.0 - present',
  },
  LogFilterEvents: {
    auth: 'user',
    input: FilterLogs,
    output: Infallible,
    inUse: 'v2.5.0 - present',
  },
  LogSecurityEvent: {
    auth: 'user',
    input: t.struct(
      { deviceId: t.uuid(), event: t.string(), detail: t.optional(t.string()) },
      'LogSecurityEvent.Input',
    ),
    output: SuccessOutput,
    inUse: 'v2.2.0 - present',
  },
  ReportBrowsers: {
    auth: 'user',
    input: t.array(
      t.struct({ name: t.string(), bundleId: t.string() }, 'ReportBrowsers.BrowserInput'),
    ),
    output: SuccessOutput,
    inUse: 'v2.2.0 - present',
  },
  LogInterestingEvent: {
    auth: 'none',
    input: t.struct(
      {
        eventId: t.string(),
        kind: t.string(),
        deviceId: t.optional(t.uuid()),
        detail: t.optional(t.string()),
      },
      'LogInterestingEvent.Input',
    ),
    output: SuccessOutput,
    inUse: 'v2.0.0 - present',
  },
  RecentAppVersions: {
    auth: 'none',
    input: null,
    output: t.dict(t.string()),
    inUse: 'v2.0.0 - present',
  },
  TrustedTime: {
    auth: 'none',
    input: null,
    output: t.double(),
    inUse: 'v2.5.0 - present',
  },
} as const satisfies Record<string, AppOperation>;

export type MacAppOperationName = keyof typeof macApp;

// ---------------------------------------------------------------------------
// iOS operations (pairql-iosapp)

export const iosApp = {
  ConnectDevice: {
    auth: 'none',
    input: t.struct(
      {
        verificationCode: t.int(),
        vendorId: t.uuid(),
        deviceType: t.string(),
        appVersion: t.string(),
        iosVersion: t.string(),
      },
      'ConnectDevice.Input',
    ),
    output: t.struct(
      { childId: t.uuid(), token: t.uuid(), deviceId: t.uuid(), childName: t.string() },
      'ChildIOSDeviceData',
    ),
    inUse: null,
  },
  ConnectedRules: {
    auth: 'device',
    input: t.struct(
      {
        vendorId: t.uuid(),
        deviceType: t.string(),
        appVersion: t.string(),
        iosVersion: t.string(),
      },
      'ConnectedRules.Input',
    ),
    output: t.struct(
      { blockRules: t.array(BlockRule), webPolicy: WebContentFilterPolicy },
      'ConnectedRules.Output',
    ),
    inUse: 'v1.5.0 - present',
  },
  CreateSuspendFilterRequest: {
    auth: 'device',
    input: t.struct(
      { duration: t.int(), comment: t.optional(t.string()) },
      'CreateSuspendFilterRequest.Input',
    ),
    output: t.uuid(),
    inUse: 'v1.5.0 - present',
  },
  PollFilterSuspensionDecision: {
    auth: 'device',
    input: t.uuid(),
    output: t.enumSynth(
      {
        pending: {},
        denied: { parentComment: t.optional(t.string()) },
        accepted: { duration: t.int(), parentComment: t.optional(t.string()) },
        notFound: {},
      },
      'PollFilterSuspensionDecision.Output',
    ),
    inUse: 'v1.5.0 - present',
  },
  ScreenshotUploadUrl: {
    auth: 'device',
    input: t.struct(
      { width: t.int(), height: t.int(), createdAt: t.date() },
      'ScreenshotUploadUrl.Input',
    ),
    output: t.struct({ uploadUrl: t.url() }, 'ScreenshotUploadUrl.Output'),
    inUse: 'v1.5.0 - present',
  },
  BlockRules: {
    auth: 'none',
    input: t.struct(
      { vendorId: t.optional(t.uuid()), version: t.optional(t.string()) },
      'BlockRules.Input',
    ),
    output: t.array(LegacyBlockRule),
    inUse: 'v1.0.0 - v1.1.x',
    deprecated: true,
  },
  BlockRules_v2: {
    auth: 'none',
    input: t.struct(
      { disabledGroups: t.array(BlockGroup), vendorId: t.uuid(), version: t.string() },
      'BlockRules_v2.Input',
    ),
    output: t.array(LegacyBlockRule),
    inUse: 'v1.3.0 - present',
  },
  DefaultBlockRules: {
    auth: 'none',
    input: t.struct(
      { vendorId: t.optional(t.uuid()), version: t.string() },
      'DefaultBlockRules.Input',
    ),
    output: t.array(LegacyBlockRule),
    inUse: 'v1.3.0 - present',
  },
  LogIOSEvent: {
    auth: 'none',
    input: t.struct(
      {
        eventId: t.string(),
        kind: t.string(),
        deviceType: t.string(),
        iOSVersion: t.string(),
        vendorId: t.optional(t.uuid()),
        detail: t.optional(t.string()),
      },
      'LogIOSEvent.Input',
    ),
    output: Infallible,
    inUse: 'v1.0.0 - present',
  },
  RecoveryDirective: {
    auth: 'none',
    input: t.struct(
      {
        vendorId: t.optional(t.uuid()),
        deviceType: t.string(),
        iOSVersion: t.string(),
        locale: t.optional(t.string()),
        version: t.optional(t.string()),
      },
      'RecoveryDirective.Input',
    ),
    output: t.struct({ directive: t.optional(t.string()) }, 'RecoveryDirective.Output'),
    inUse: 'v1.3.1 - present',
  },
  ConnectAccountFeatureFlag: {
    auth: 'none',
    input: null,
    output: t.struct(
      {
        isEnabled: t.bool(),
        offerScreenText: t.optional(t.string()),
        offerScreenConnectBtnText: t.optional(t.string()),
        offerScreenSkipBtnText: t.optional(t.string()),
        explainScreenText: t.optional(t.string()),
        connectAccountSheetInfoBlurb: t.optional(t.string()),
      },
      'ConnectAccountFeatureFlag.Output',
    ),
    inUse: 'v1.5.0 - present',
  },
} as const satisfies Record<string, AppOperation>;

export type IosAppOperationName = keyof typeof iosApp;
