import { z } from 'zod';
import { LIMITS } from './constants.ts';
import type { InputOf, OperationDef, OutputOf, ParsedInputOf } from './operation.ts';
import {
  BlockedApp,
  FilterSuspensionDecision,
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

// The Mac device API: `POST /pairql/macos-app/{Op}` with `X-UserToken` (server-behaviour §4),
// and the messages of the push channel `GET /macos-app/channel` (§4.4).

const macVersion = z.string().max(LIMITS.macVersion);

// ---------------------------------------------------------------------------
// Push channel

/** What the Mac filter reports about itself (tag `case`). */
export const FilterState = z.discriminatedUnion('case', [
  z.object({ case: z.literal('off') }),
  z.object({ case: z.literal('on') }),
  z.object({ case: z.literal('suspended'), resuming: IsoDate }),
  z.object({ case: z.literal('downtime'), ending: IsoDate }),
  z.object({ case: z.literal('downtimePaused'), resuming: IsoDate }),
]);
export type FilterState = z.infer<typeof FilterState>;

/** Device → server, over the WebSocket or through the Heartbeat operation. */
export const DeviceMessage = z.discriminatedUnion('case', [
  z.object({ case: z.literal('heartbeat') }),
  z.object({ case: z.literal('currentFilterState_v2'), state: FilterState }),
  z.object({ case: z.literal('goingOffline') }),
]);
export type DeviceMessage = z.infer<typeof DeviceMessage>;

/** A decided unlock request as the Mac sees it (push message payload and check-in). */
export const ResolvedUnlockRequest = z.object({
  id: Uuid,
  status: RequestStatus,
  target: z.string(),
  comment: z.string().optional(),
});
export type ResolvedUnlockRequest = z.infer<typeof ResolvedUnlockRequest>;

/** A decided filter-suspension request (push message payload and check-in). */
export const ResolvedFilterSuspension = z.object({
  id: Uuid,
  decision: FilterSuspensionDecision,
  comment: z.string().optional(),
});
export type ResolvedFilterSuspension = z.infer<typeof ResolvedFilterSuspension>;

/** Server → device push messages. `userUpdated` means "check in now". */
export const ServerMessage = z.discriminatedUnion('case', [
  z.object({ case: z.literal('userUpdated') }),
  z.object({ case: z.literal('userDeleted') }),
  ResolvedUnlockRequest.extend({ case: z.literal('unlockRequestUpdated_v2') }),
  ResolvedFilterSuspension.extend({ case: z.literal('filterSuspensionRequestDecided_v2') }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

// ---------------------------------------------------------------------------
// Settings and check-in

/** The child's settings as the Mac applies them. `id` is the child id. */
export const UserData = z.object({
  id: Uuid,
  name: z.string(),
  keyloggingEnabled: z.boolean(),
  screenshotsEnabled: z.boolean(),
  screenshotFrequency: z.number(),
  screenshotSize: z.number(),
  downtime: PlainTimeWindow.optional(),
  blockedApps: z.array(BlockedApp),
});
export type UserData = z.infer<typeof UserData>;

export const AdminAccountStatus = z.enum(['active', 'needsAttention', 'inactive']);
export type AdminAccountStatus = z.infer<typeof AdminAccountStatus>;

// §4.2 leaves the app catalogue open: one entry per identified app, with its bundle ids and the
// name of its category when it has one.
export const AppManifest = z.object({
  apps: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      bundleIds: z.array(z.string()),
      category: z.string().optional(),
    }),
  ),
});
export type AppManifest = z.infer<typeof AppManifest>;

// §4.2 leaves `browsers` open: the known web browsers, by bundle id.
export const Browser = z.object({ name: z.string(), bundleId: z.string() });
export type Browser = z.infer<typeof Browser>;

// §4.2: an assigned keychain with its unexpired keys only.
export const CheckInKeychain = z.object({
  id: Uuid,
  schedule: RuleSchedule.optional(),
  keys: z.array(z.object({ id: Uuid, key: SharedKey })),
});
export type CheckInKeychain = z.infer<typeof CheckInKeychain>;

// §4.2 leaves the release open: absent when the Mac is up to date. `nagOn` / `requireOn` are when
// the app starts nagging / forces the update; `downloadUrl` is absent when no download is configured.
export const LatestRelease = z.object({
  semver: z.string(),
  channel: ReleaseChannel,
  releasedOn: IsoDate,
  nagOn: IsoDate.optional(),
  requireOn: IsoDate.optional(),
  downloadUrl: z.string().optional(),
});
export type LatestRelease = z.infer<typeof LatestRelease>;

export const CheckInInput = inputObject({
  appVersion: macVersion,
  filterVersion: optionalInput(macVersion),
  isAdmin: optionalInput(z.boolean()),
  osVersion: optionalInput(macVersion),
  pendingFilterSuspension: optionalInput(Uuid),
  pendingUnlockRequests: optionalInput(inputArray(Uuid)),
  namedApps: optionalInput(
    inputArray(
      inputObject({
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
  browsers: z.array(Browser),
  keychains: z.array(CheckInKeychain),
  latestRelease: LatestRelease.optional(),
  /** the computer's release channel */
  updateReleaseChannel: ReleaseChannel,
  userData: UserData,
  /** only when the given pending id has a decision */
  resolvedFilterSuspension: ResolvedFilterSuspension.optional(),
  /** for the given ids no longer pending */
  resolvedUnlockRequests: z.array(ResolvedUnlockRequest).optional(),
  trustedTime: IsoDate,
});
export type CheckInOutput = z.infer<typeof CheckInOutput>;

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

/** `deviceId` is the computer-user id; the UserData fields are flattened beside it. */
export const ConnectUserOutput = UserData.extend({
  token: Uuid,
  deviceId: Uuid,
  connectedAt: IsoDate,
});
export type ConnectUserOutput = z.infer<typeof ConnectUserOutput>;

export const macosApp = {
  ConnectUser: { auth: 'none', input: ConnectUserInput, output: ConnectUserOutput },
  CheckIn_v2: { auth: 'device', input: CheckInInput, output: CheckInOutput },
  Heartbeat: { auth: 'device', input: DeviceMessage, output: SuccessOutput },
  TrustedTime: { auth: 'none', input: null, output: IsoDate },
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
      createdAt: optionalInput(IsoDate),
    }),
    output: z.object({ uploadUrl: z.string(), webUrl: z.string() }),
  },
  CreateKeystrokeLines: {
    auth: 'device',
    input: inputArray(
      inputObject({
        appName: z.string(),
        line: z.string().max(LIMITS.keystrokeLine),
        filterSuspended: optionalInput(z.boolean()),
        time: IsoDate,
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
