import { z } from 'zod';
import { LIMITS } from './constants.ts';
import type { InputOf, OperationDef, OutputOf, ParsedInputOf } from './operation.ts';
import {
  IsoDate,
  inputArray,
  inputObject,
  optionalInput,
  PlainTimeWindow,
  ReleaseChannel,
  RequestStatus,
  RuleSchedule,
  SharedKey,
  SuccessOutput,
  Uuid,
} from './shared.ts';
import {
  SwiftDateInput,
  SwiftIsoDate,
  swiftBareCase,
  swiftCase,
  swiftCaseName,
  toSwiftReferenceSeconds,
} from './swift.ts';

// The Mac device API: `POST /pairql/macos-app/{Op}` with `X-UserToken`, and the push channel
// `GET /app-websocket` (Authorization: Bearer <token>), exactly as the reference's Mac app speaks
// them (docs/device-wire.md; the app's Swift source is the truth).

const macVersion = z.string().max(LIMITS.macVersion);

// ---------------------------------------------------------------------------
// Filter state and push messages
//
// `FilterState` and `DeviceMessage` / `ServerMessage` below are the server's own forms (stored in
// device_presence, passed between instances by the push hub). On the wire the Mac app speaks the
// synthesized forms `AppToServerMessage` / `ServerToAppMessage` (docs/device-wire.md); the push
// channel converts at its edge.

/** What the Mac filter reports about itself (tag `case`), as the server keeps it. */
export const FilterState = z.discriminatedUnion('case', [
  z.object({ case: z.literal('off') }),
  z.object({ case: z.literal('on') }),
  z.object({ case: z.literal('suspended'), resuming: IsoDate.optional() }),
  z.object({ case: z.literal('downtime'), ending: IsoDate.optional() }),
  z.object({ case: z.literal('downtimePaused'), resuming: IsoDate.optional() }),
]);
export type FilterState = z.infer<typeof FilterState>;

/** Device → server, as the server handles it (from the channel, or the Heartbeat operation). */
export type DeviceMessage =
  | { case: 'heartbeat' }
  | { case: 'currentFilterState_v2'; state: FilterState }
  | { case: 'goingOffline' };

/** The app's `FilterState.WithTimes`, synthesized; its dates are reference-date numbers. */
const WireFilterStateWithTimes = z.union([
  swiftBareCase('off').transform((): FilterState => ({ case: 'off' })),
  swiftBareCase('on').transform((): FilterState => ({ case: 'on' })),
  swiftCase('suspended', { resuming: SwiftDateInput }).transform(
    (s): FilterState => ({ case: 'suspended', resuming: s.suspended.resuming }),
  ),
  swiftCase('downtime', { ending: SwiftDateInput }).transform(
    (s): FilterState => ({ case: 'downtime', ending: s.downtime.ending }),
  ),
  swiftCase('downtimePaused', { resuming: SwiftDateInput }).transform(
    (s): FilterState => ({ case: 'downtimePaused', resuming: s.downtimePaused.resuming }),
  ),
]);

/** The app's `FilterState.WithoutTimes` (raw strings), sent by apps before 2.7.0. */
const WireFilterStateWithoutTimes = z
  .enum(['on', 'off', 'suspended', 'downtime', 'downtimePaused'])
  .transform((state): FilterState => ({ case: state }));

/**
 * `WebSocketMessage.FromAppToApi` as the app encodes it, parsed to the server's DeviceMessage.
 * A WebSocket ping is the app's heartbeat; `{"heartbeat":{}}` is accepted from other clients.
 */
export const AppToServerMessage = z.union([
  swiftCase('currentFilterState_v2', { _0: WireFilterStateWithTimes }).transform(
    (m): DeviceMessage => ({ case: 'currentFilterState_v2', state: m.currentFilterState_v2._0 }),
  ),
  swiftCase('currentFilterState', { _0: WireFilterStateWithoutTimes }).transform(
    (m): DeviceMessage => ({ case: 'currentFilterState_v2', state: m.currentFilterState._0 }),
  ),
  swiftBareCase('goingOffline').transform((): DeviceMessage => ({ case: 'goingOffline' })),
  swiftBareCase('heartbeat').transform((): DeviceMessage => ({ case: 'heartbeat' })),
]);

/** A DeviceMessage as the app sends it (`{"currentFilterState_v2": {"_0": {"on": {}}}}`). */
export function toAppToServerMessage(message: DeviceMessage): z.input<typeof AppToServerMessage> {
  if (message.case !== 'currentFilterState_v2') return { [message.case]: {} } as never;
  const { case: state, ...times } = message.state;
  const values = Object.fromEntries(
    Object.entries(times).map(([name, date]) => [name, toSwiftReferenceSeconds(date as string)]),
  );
  return { currentFilterState_v2: { _0: { [state]: values } } } as never;
}

/** A decided unlock request as the Mac sees it (push message payload and check-in). */
export const ResolvedUnlockRequest = z.object({
  id: Uuid,
  status: RequestStatus,
  target: z.string(),
  comment: z.string().optional(),
});
export type ResolvedUnlockRequest = z.infer<typeof ResolvedUnlockRequest>;

/** The app's `FilterSuspensionDecision.ExtraMonitoring`, synthesized. */
export const WireExtraMonitoring = z.union([
  swiftBareCase('addKeylogging'),
  swiftCase('setScreenshotFreq', { _0: z.number().int() }),
  swiftCase('addKeyloggingAndSetScreenshotFreq', { _0: z.number().int() }),
]);
export type WireExtraMonitoring = z.infer<typeof WireExtraMonitoring>;

/** The app's `FilterSuspensionDecision`, synthesized: `duration` in seconds. */
export const WireSuspensionDecision = z.union([
  swiftBareCase('rejected'),
  swiftCase('accepted', {
    duration: z.number().int(),
    extraMonitoring: WireExtraMonitoring.optional(),
  }),
]);
export type WireSuspensionDecision = z.infer<typeof WireSuspensionDecision>;

/** A decided filter-suspension request (push message payload and check-in). */
export const ResolvedFilterSuspension = z.object({
  id: Uuid,
  decision: WireSuspensionDecision,
  comment: z.string().optional(),
});
export type ResolvedFilterSuspension = z.infer<typeof ResolvedFilterSuspension>;

/**
 * Server → Mac push messages as the server's push hub carries them between instances: tag `case`,
 * the case's values beside it (the channel sends `{[case]: values}`). `userUpdated` means "check in
 * now".
 */
export type ServerMessage =
  | { case: 'userUpdated' }
  | { case: 'userDeleted' }
  | { case: 'currentFilterStateRequested' }
  | ({ case: 'unlockRequestUpdated_v2' } & ResolvedUnlockRequest)
  | ({ case: 'filterSuspensionRequestDecided_v2' } & ResolvedFilterSuspension);

/** A push message from the wire back to the server's form (`{case, …values}`). */
export function fromServerToAppMessage(message: ServerToAppMessage): ServerMessage {
  const name = swiftCaseName(message);
  return { case: name, ...(message as Record<string, object>)[name] } as ServerMessage;
}

/** The synthesized wire form of a push message: `{"userUpdated": {}}`, `{"unlockRequestUpdated_v2": {id, …}}`. */
export function toServerToAppMessage(message: ServerMessage): ServerToAppMessage {
  const { case: name, ...values } = message;
  return { [name]: values } as ServerToAppMessage;
}

/** `WebSocketMessage.FromApiToApp`: server → Mac on the wire, synthesized. */
export const ServerToAppMessage = z.union([
  swiftBareCase('userUpdated'),
  swiftBareCase('userDeleted'),
  swiftBareCase('currentFilterStateRequested'),
  swiftCase('unlockRequestUpdated_v2', ResolvedUnlockRequest.shape),
  swiftCase('filterSuspensionRequestDecided_v2', ResolvedFilterSuspension.shape),
]);
export type ServerToAppMessage = z.infer<typeof ServerToAppMessage>;

// ---------------------------------------------------------------------------
// Settings and check-in

/** The app's `BlockedApp`: `id` is ours, ignored by the app. */
const WireBlockedApp = z.object({
  id: Uuid.optional(),
  identifier: z.string(),
  schedule: RuleSchedule.optional(),
});

/** The app's `UserData`: `id` is the child id, `deviceId` the computer-user id. */
export const UserData = z.object({
  id: Uuid,
  token: Uuid,
  deviceId: Uuid,
  name: z.string(),
  keyloggingEnabled: z.boolean(),
  screenshotsEnabled: z.boolean(),
  screenshotFrequency: z.number().int(),
  screenshotSize: z.number().int(),
  downtime: PlainTimeWindow.optional(),
  blockedApps: z.array(WireBlockedApp).optional(),
  connectedAt: SwiftIsoDate,
});
export type UserData = z.infer<typeof UserData>;

export const AdminAccountStatus = z.enum(['active', 'needsAttention', 'inactive']);
export type AdminAccountStatus = z.infer<typeof AdminAccountStatus>;

/**
 * The app's `AppIdManifest`: app slug → bundle ids, app slug → display name, category slug → app
 * slugs (the Swift sets are arrays on the wire).
 */
export const AppManifest = z.object({
  apps: z.record(z.string(), z.array(z.string())),
  displayNames: z.record(z.string(), z.string()),
  categories: z.record(z.string(), z.array(z.string())),
});
export type AppManifest = z.infer<typeof AppManifest>;

/** The app's `BrowserMatch`, synthesized. */
export const BrowserMatch = z.union([
  swiftCase('bundleId', { _0: z.string() }),
  swiftCase('name', { _0: z.string() }),
]);
export type BrowserMatch = z.infer<typeof BrowserMatch>;

export const RuleKey = z.object({ id: Uuid, key: SharedKey });

/** The app's `RuleKeychain`: an assigned keychain with its unexpired keys only. */
export const CheckInKeychain = z.object({
  id: Uuid,
  schedule: RuleSchedule.optional(),
  keys: z.array(RuleKey),
});
export type CheckInKeychain = z.infer<typeof CheckInKeychain>;

/**
 * The app's `CheckIn_v2.LatestRelease`: the version to run (the app's own when it is up to date),
 * and when a newer one starts nagging and is required.
 */
export const LatestRelease = z.object({
  semver: z.string(),
  pace: z.object({ nagOn: SwiftIsoDate, requireOn: SwiftIsoDate }).optional(),
});
export type LatestRelease = z.infer<typeof LatestRelease>;

export const CheckInInput = inputObject({
  appVersion: macVersion,
  filterVersion: optionalInput(macVersion),
  userIsAdmin: optionalInput(z.boolean()),
  osVersion: optionalInput(macVersion),
  pendingFilterSuspension: optionalInput(Uuid),
  pendingUnlockRequests: optionalInput(inputArray(Uuid)),
  /** the app's `RunningApp`s that have a name (v2.6.0 and later) */
  namedApps: optionalInput(
    inputArray(
      inputObject({
        pid: optionalInput(z.number().int()),
        bundleId: z.string(),
        bundleName: optionalInput(z.string()),
        localizedName: optionalInput(z.string()),
        launchable: optionalInput(z.boolean()),
      }),
    ),
  ),
});
export type CheckInInput = z.infer<typeof CheckInInput>;

export const CheckInOutput = z.object({
  adminAccountStatus: AdminAccountStatus,
  appManifest: AppManifest,
  browsers: z.array(BrowserMatch),
  keychains: z.array(CheckInKeychain),
  latestRelease: LatestRelease,
  /** the computer's release channel */
  updateReleaseChannel: ReleaseChannel,
  userData: UserData,
  /** only when the given pending id has a decision */
  resolvedFilterSuspension: ResolvedFilterSuspension.optional(),
  /** for the given ids no longer pending */
  resolvedUnlockRequests: z.array(ResolvedUnlockRequest).optional(),
  /** seconds since 1970 */
  trustedTime: z.number(),
});
export type CheckInOutput = z.infer<typeof CheckInOutput>;

/** The deprecated check-in of app versions 2.0.4 to 2.4.0: the keys without their keychains. */
export const LegacyCheckInOutput = CheckInOutput.omit({
  keychains: true,
  trustedTime: true,
}).extend({
  keys: z.array(RuleKey),
});
export type LegacyCheckInOutput = z.infer<typeof LegacyCheckInOutput>;

// ---------------------------------------------------------------------------
// Operations

export const ConnectUserInput = inputObject({
  verificationCode: z.number().int(),
  appVersion: macVersion,
  modelIdentifier: z.string(),
  username: z.string(),
  fullUsername: z.string(),
  numericId: z.number().int(),
  serialNumber: z.string(),
  osVersion: optionalInput(macVersion),
  isAdmin: optionalInput(z.boolean()),
});
export type ConnectUserInput = z.infer<typeof ConnectUserInput>;

/** The app's `FilterLogs`: counts by bundle id, and events (a Swift dictionary keyed by a struct: a flat array alternating event and count). */
export const FilterLogs = inputObject({
  bundleIds: z.record(z.string().max(LIMITS.event), z.number().int().nonnegative()),
  events: z
    .array(
      z.union([
        inputObject({
          id: z.string().max(LIMITS.event),
          detail: optionalInput(z.string().max(LIMITS.comment)),
        }),
        z.number().int().nonnegative(),
      ]),
    )
    .max(2 * LIMITS.arrayItems),
});
export type FilterLogs = z.infer<typeof FilterLogs>;

/** Swift's `Infallible`: an empty object. */
const Infallible = z.object({}).strict();

export const macosApp = {
  ConnectUser: { auth: 'none', input: ConnectUserInput, output: UserData },
  CheckIn_v2: { auth: 'device', input: CheckInInput, output: CheckInOutput },
  /** deprecated: app versions 2.0.4 to 2.4.0 */
  CheckIn: { auth: 'device', input: CheckInInput, output: LegacyCheckInOutput },
  /** not called by the apps (they ping the push channel); for clients without a WebSocket */
  Heartbeat: { auth: 'device', input: AppToServerMessage, output: SuccessOutput },
  /** seconds since 1970 */
  TrustedTime: { auth: 'none', input: null, output: z.number() },
  /** release semver → label, newest first */
  RecentAppVersions: { auth: 'none', input: null, output: z.record(z.string(), z.string()) },
  CreateUnlockRequests_v3: {
    auth: 'device',
    input: inputObject({
      blockedRequests: inputArray(
        inputObject({
          bundleId: z.string(),
          url: optionalInput(z.string().max(LIMITS.url)),
          hostname: optionalInput(z.string()),
          ipAddress: optionalInput(z.string().max(LIMITS.ipAddress)),
        }),
      ),
      comment: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: z.array(Uuid),
  },
  CreateSuspendFilterRequest_v2: {
    auth: 'device',
    input: inputObject({
      /** seconds */
      duration: z.number().int().positive(),
      comment: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: Uuid,
  },
  CreateSignedScreenshotUpload: {
    auth: 'device',
    input: inputObject({
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      filterSuspended: optionalInput(z.boolean()),
      createdAt: optionalInput(SwiftDateInput),
    }),
    output: z.object({ uploadUrl: z.url(), webUrl: z.url() }),
  },
  CreateKeystrokeLines: {
    auth: 'device',
    input: inputArray(
      inputObject({
        appName: z.string(),
        line: z.string().max(LIMITS.keystrokeLine),
        filterSuspended: optionalInput(z.boolean()),
        time: SwiftDateInput,
      }),
    ),
    output: SuccessOutput,
  },
  LogSecurityEvent: {
    auth: 'device',
    input: inputObject({
      /** a computer-user id of the same parent */
      deviceId: Uuid,
      event: z.string().max(LIMITS.event),
      detail: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: SuccessOutput,
  },
  LogFilterEvents: { auth: 'device', input: FilterLogs, output: Infallible },
  ReportBrowsers: {
    auth: 'device',
    input: inputArray(
      inputObject({ name: z.string().max(LIMITS.event), bundleId: z.string().max(LIMITS.event) }),
    ),
    output: SuccessOutput,
  },
  LogInterestingEvent: {
    auth: 'none',
    input: inputObject({
      eventId: z.string().max(LIMITS.event),
      kind: z.string().max(LIMITS.event),
      deviceId: optionalInput(Uuid),
      detail: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: SuccessOutput,
  },
} as const satisfies Record<string, OperationDef>;

export type MacosAppOperation = keyof typeof macosApp;
export type MacosAppInput<Op extends MacosAppOperation> = InputOf<(typeof macosApp)[Op]>;
export type MacosAppParsedInput<Op extends MacosAppOperation> = ParsedInputOf<
  (typeof macosApp)[Op]
>;
export type MacosAppOutput<Op extends MacosAppOperation> = OutputOf<(typeof macosApp)[Op]>;

export const macosAppOperationNames = Object.keys(macosApp) as MacosAppOperation[];

export function isMacosAppOperation(name: string): name is MacosAppOperation {
  return Object.hasOwn(macosApp, name);
}

/** Mac security events that notify the parent (`adminChildSecurityEvent`) for macOS-admin users. */
export const KNOWN_MAC_SECURITY_EVENTS = [
  'filterSuspendedRemotely',
  'filterSuspensionGrantedByAdmin',
  'filterSuspensionExpired',
  'filterSuspensionEndedEarly',
  'systemExtensionChangeRequested',
  'systemExtensionStateChanged',
  'appQuit',
  'appLaunched',
  'newMacOsUserCreated',
  'macosUserExempted',
  'childDisconnected',
  'appUpdateSucceeded',
  'appUpdateFailedToReplaceSystemExtension',
  'advancedSettingsOpened',
  'systemClockOrTimeZoneChanged',
  'blockedAppLaunchAttempted',
] as const;
export type KnownMacSecurityEvent = (typeof KNOWN_MAC_SECURITY_EVENTS)[number];
