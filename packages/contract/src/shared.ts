import { z } from 'zod';
import { LIMITS } from './constants.ts';

// Shared wire shapes of the dashboard contract (wire-contract §3, §4, §5.3).
// Output shapes are strict: an optional key may be absent but never `null`.
// Input shapes go through `optionalInput` / `inputObject`, which treat `null` like an absent key.

// ---------------------------------------------------------------------------
// Input helpers

function nullToUndefined(value: unknown): unknown {
  return value === null ? undefined : value;
}

/**
 * An optional input field that also accepts `null` and treats it as absent.
 * Typed as `ZodOptional<T>` so inferred input/output types stay `T | undefined`; at runtime it is a
 * preprocess pipe (do not call `.unwrap()` on it).
 */
export function optionalInput<T extends z.ZodType>(schema: T): z.ZodOptional<T> {
  return z.preprocess(nullToUndefined, schema.optional()) as unknown as z.ZodOptional<T>;
}

function dropUndefinedKeys<T>(value: T): T {
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (record[key] === undefined) delete record[key];
    }
  }
  return value;
}

/** An input object: `{ a: null }` for an `optionalInput` field `a` parses as `{}` (key absent). */
export function inputObject<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).overwrite(dropUndefinedKeys);
}

/** An input array capped at the per-request item limit. */
export function inputArray<T extends z.ZodType>(item: T) {
  return z.array(item).max(LIMITS.arrayItems);
}

// ---------------------------------------------------------------------------
// Scalars

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Canonical 8-4-4-4-12 UUID in either letter case; parses to lowercase. */
export const Uuid = z.string().regex(UUID_PATTERN, 'Invalid UUID').toLowerCase();
export type Uuid = z.infer<typeof Uuid>;

const SECONDS_AND_Z = /T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** ISO-8601 UTC with a `Z` suffix, with or without fractional seconds. */
export const IsoDate = z.iso.datetime().regex(SECONDS_AND_Z, 'Invalid ISO date');
export type IsoDate = z.infer<typeof IsoDate>;

export const PlainTime = z.object({
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
});
export type PlainTime = z.infer<typeof PlainTime>;

/** May wrap midnight (default downtime 21:00 → 05:00). */
export const PlainTimeWindow = z.object({ start: PlainTime, end: PlainTime });
export type PlainTimeWindow = z.infer<typeof PlainTimeWindow>;

export const RuleSchedule = z.object({
  mode: z.enum(['active', 'inactive']),
  days: z.object({
    sunday: z.boolean(),
    monday: z.boolean(),
    tuesday: z.boolean(),
    wednesday: z.boolean(),
    thursday: z.boolean(),
    friday: z.boolean(),
    saturday: z.boolean(),
  }),
  window: PlainTimeWindow,
});
export type RuleSchedule = z.infer<typeof RuleSchedule>;

export const ReleaseChannel = z.enum(['stable', 'beta', 'canary']);
export type ReleaseChannel = z.infer<typeof ReleaseChannel>;

export const RequestStatus = z.enum(['pending', 'accepted', 'rejected']);
export type RequestStatus = z.infer<typeof RequestStatus>;

export const WebPolicy = z.enum([
  'allowAll',
  'blockAdult',
  'blockAdultAnd',
  'blockAllExcept',
  'blockAll',
]);
export type WebPolicy = z.infer<typeof WebPolicy>;

export const SuccessOutput = z.object({ success: z.boolean() });
export type SuccessOutput = z.infer<typeof SuccessOutput>;

// ---------------------------------------------------------------------------
// Filter keys (tag `type`)

export const SingleAppScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('bundleId'), bundleId: z.string() }),
  z.object({ type: z.literal('identifiedAppSlug'), identifiedAppSlug: z.string() }),
]);
export type SingleAppScope = z.infer<typeof SingleAppScope>;

export const AppScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('unrestricted') }),
  z.object({ type: z.literal('webBrowsers') }),
  z.object({ type: z.literal('single'), single: SingleAppScope }),
]);
export type AppScope = z.infer<typeof AppScope>;

export const SharedKey = z.discriminatedUnion('type', [
  z.object({ type: z.literal('anySubdomain'), domain: z.string(), scope: AppScope }),
  z.object({ type: z.literal('domain'), domain: z.string(), scope: AppScope }),
  z.object({ type: z.literal('domainRegex'), pattern: z.string(), scope: AppScope }),
  z.object({ type: z.literal('skeleton'), scope: SingleAppScope }),
  z.object({ type: z.literal('ipAddress'), ipAddress: z.string(), scope: AppScope }),
  z.object({ type: z.literal('path'), path: z.string(), scope: AppScope }),
]);
export type SharedKey = z.infer<typeof SharedKey>;

export const Key = z.object({
  id: Uuid,
  keychainId: Uuid,
  comment: z.string().optional(),
  expiration: IsoDate.optional(),
  key: SharedKey,
});
export type Key = z.infer<typeof Key>;

// ---------------------------------------------------------------------------
// Keychains

export const KeychainSummary = z.object({
  id: Uuid,
  parentId: Uuid,
  name: z.string(),
  description: z.string().optional(),
  warning: z.string().optional(),
  isPublic: z.boolean(),
  numKeys: z.number(),
});
export type KeychainSummary = z.infer<typeof KeychainSummary>;

/** Unlike KeychainSummary: no `warning`, but a `schedule`. */
export const UserKeychainSummary = z.object({
  id: Uuid,
  parentId: Uuid,
  name: z.string(),
  description: z.string().optional(),
  isPublic: z.boolean(),
  numKeys: z.number(),
  schedule: RuleSchedule.optional(),
});
export type UserKeychainSummary = z.infer<typeof UserKeychainSummary>;

export const AdminKeychain = z.object({
  summary: KeychainSummary,
  children: z.array(Uuid),
  keys: z.array(Key),
});
export type AdminKeychain = z.infer<typeof AdminKeychain>;

// ---------------------------------------------------------------------------
// Parent account

export const AdminNotificationTrigger = z.enum([
  'unlockRequestSubmitted',
  'suspendFilterRequestSubmitted',
  'adminChildSecurityEvent',
  // issue 24: a typed line matched a child's alert words
  'activityAlert',
]);
export type AdminNotificationTrigger = z.infer<typeof AdminNotificationTrigger>;

export const AdminNotification = z.object({
  id: Uuid,
  trigger: AdminNotificationTrigger,
  methodId: Uuid,
});
export type AdminNotification = z.infer<typeof AdminNotification>;

export const AdminSubscriptionStatus = z.discriminatedUnion('case', [
  z.object({ case: z.literal('trialing'), daysLeft: z.number() }),
  z.object({ case: z.literal('complimentary') }),
  z.object({ case: z.literal('paid') }),
  z.object({ case: z.literal('overdue') }),
  z.object({ case: z.literal('unpaid') }),
]);
export type AdminSubscriptionStatus = z.infer<typeof AdminSubscriptionStatus>;

/** Also the top-level input of CreatePendingNotificationMethod. */
export const NotificationMethodConfig = z.discriminatedUnion('case', [
  z.object({
    case: z.literal('slack'),
    channelId: z.string(),
    channelName: z.string(),
    token: z.string(),
  }),
  z.object({ case: z.literal('email'), email: z.string() }),
  z.object({ case: z.literal('text'), phoneNumber: z.string() }),
]);
export type NotificationMethodConfig = z.infer<typeof NotificationMethodConfig>;

/** In outputs the Slack `token` is a redacted display form, never the secret. */
export const VerifiedNotificationMethod = z.object({
  id: Uuid,
  config: NotificationMethodConfig,
});
export type VerifiedNotificationMethod = z.infer<typeof VerifiedNotificationMethod>;

export const GetAdminOutput = z.object({
  id: Uuid,
  email: z.string(),
  subscriptionStatus: AdminSubscriptionStatus,
  notifications: z.array(AdminNotification),
  verifiedNotificationMethods: z.array(VerifiedNotificationMethod),
  hasAdminChild: z.boolean(),
  monthlyPriceInDollars: z.number(),
  /** Beyond the reference (issue 12): who is signed in; absent = the owner. */
  role: z.enum(['owner', 'coParent']).optional(),
});
export type GetAdminOutput = z.infer<typeof GetAdminOutput>;

// ---------------------------------------------------------------------------
// Block rules (iOS custom rules; tag `case`, recursive)

export type BlockRule =
  | { case: 'bundleIdContains'; value: string }
  | { case: 'urlContains'; value: string }
  | { case: 'hostnameContains'; value: string }
  | { case: 'hostnameEquals'; value: string }
  | { case: 'hostnameEndsWith'; value: string }
  | { case: 'targetContains'; value: string }
  | { case: 'flowTypeIs'; value: 'browser' | 'socket' }
  | { case: 'both'; a: BlockRule; b: BlockRule }
  | { case: 'unless'; rule: BlockRule; negatedBy: BlockRule[] };

export const BlockRule: z.ZodType<BlockRule, BlockRule> = z.lazy(() =>
  z.discriminatedUnion('case', [
    z.object({ case: z.literal('bundleIdContains'), value: z.string() }),
    z.object({ case: z.literal('urlContains'), value: z.string() }),
    z.object({ case: z.literal('hostnameContains'), value: z.string() }),
    z.object({ case: z.literal('hostnameEquals'), value: z.string() }),
    z.object({ case: z.literal('hostnameEndsWith'), value: z.string() }),
    z.object({ case: z.literal('targetContains'), value: z.string() }),
    z.object({ case: z.literal('flowTypeIs'), value: z.enum(['browser', 'socket']) }),
    z.object({ case: z.literal('both'), a: BlockRule, b: BlockRule }),
    z.object({
      case: z.literal('unless'),
      rule: BlockRule,
      negatedBy: z.array(BlockRule).max(LIMITS.arrayItems),
    }),
  ]),
);

// ---------------------------------------------------------------------------
// Computers and children

export const ChildComputerStatus = z.discriminatedUnion('case', [
  z.object({ case: z.literal('filterSuspended'), resuming: IsoDate.optional() }),
  z.object({ case: z.literal('downtime'), ending: IsoDate.optional() }),
  z.object({ case: z.literal('downtimePaused'), resuming: IsoDate.optional() }),
  z.object({ case: z.literal('offline') }),
  z.object({ case: z.literal('filterOff') }),
  z.object({ case: z.literal('filterOn') }),
]);
export type ChildComputerStatus = z.infer<typeof ChildComputerStatus>;

export const DeviceModelFamily = z.enum([
  'macBook',
  'macBookAir',
  'macBookPro',
  'mini',
  'iMac',
  'studio',
  'pro',
  'unknown',
]);
export type DeviceModelFamily = z.infer<typeof DeviceModelFamily>;

/** A Mac ("computer"). GetDevices returns these same objects. */
export const Device = z.object({
  id: Uuid,
  name: z.string().optional(),
  releaseChannel: ReleaseChannel,
  users: z.array(z.object({ id: Uuid, name: z.string(), status: ChildComputerStatus })),
  appVersion: z.string(),
  serialNumber: z.string(),
  modelIdentifier: z.string(),
  modelFamily: DeviceModelFamily,
  modelTitle: z.string(),
});
export type Device = z.infer<typeof Device>;

/** The link between a child and a Mac: `id` is the computer-user id, `deviceId` the Mac id. */
export const UserDevice = z.object({
  id: Uuid,
  deviceId: Uuid,
  status: ChildComputerStatus,
  modelFamily: DeviceModelFamily,
  modelTitle: z.string(),
  modelIdentifier: z.string(),
  customName: z.string().optional(),
});
export type UserDevice = z.infer<typeof UserDevice>;

export const BlockedApp = z.object({
  id: Uuid,
  identifier: z.string(),
  schedule: RuleSchedule.optional(),
});
export type BlockedApp = z.infer<typeof BlockedApp>;

/** BlockedApp as sent by the dashboard (SaveUser): `schedule: null` counts as absent. */
export const BlockedAppInput = inputObject({
  id: Uuid,
  identifier: z.string(),
  schedule: optionalInput(RuleSchedule),
});
export type BlockedAppInput = z.infer<typeof BlockedAppInput>;

/** A child. */
// ---------------------------------------------------------------------------
// Screen time (issue 34)

/** Minutes allowed on one day of the week; null: no limit that day. */
const DayAllowance = z
  .number()
  .int()
  .min(0)
  .max(24 * 60)
  .nullable();
export const WeeklyAllowance = z.object({
  monday: DayAllowance,
  tuesday: DayAllowance,
  wednesday: DayAllowance,
  thursday: DayAllowance,
  friday: DayAllowance,
  saturday: DayAllowance,
  sunday: DayAllowance,
});
export type WeeklyAllowance = z.infer<typeof WeeklyAllowance>;

/** One day of the child's screen time (the family's time zone). */
export const ScreenTimeDay = z.object({
  /** YYYY-MM-DD */
  date: z.string(),
  weekday: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  usedMinutes: z.number(),
  /** that day's allowance before grants; null: no limit */
  allowanceMinutes: z.number().nullable(),
  grantedMinutes: z.number(),
});
export type ScreenTimeDay = z.infer<typeof ScreenTimeDay>;

/** A child's screen-time settings (GetUser; SaveScreenTime, PauseInternet change them). */
export const ScreenTime = z.object({
  allowance: WeeklyAllowance,
  /** keychains marked "doesn't use up time" */
  exemptKeychainIds: z.array(Uuid),
  /** the family's time zone the days are counted in */
  timeZone: z.string(),
  /** present while the internet is paused; `until` absent: until the parent resumes */
  pause: z.object({ until: IsoDate.optional() }).optional(),
});
export type ScreenTime = z.infer<typeof ScreenTime>;

/** Where the child's time went (GetScreenTime: read fresh, it changes every minute). */
export const ScreenTimeUsage = z.object({
  today: ScreenTimeDay.extend({
    /** null: no limit today */
    remainingMinutes: z.number().nullable(),
    resetsAt: IsoDate,
  }),
  /** the last 7 days, oldest first, today last */
  week: z.array(ScreenTimeDay),
  /** the week's sites by time, most first (at most 10) */
  topSites: z.array(z.object({ site: z.string(), minutes: z.number() })),
});
export type ScreenTimeUsage = z.infer<typeof ScreenTimeUsage>;

// Allowance minutes are checked by the server (allowanceProblem) for a message a parent reads.
const DayAllowanceInput = z.number().nullable();
export const SaveScreenTimeInput = inputObject({
  childId: Uuid,
  allowance: inputObject({
    monday: DayAllowanceInput,
    tuesday: DayAllowanceInput,
    wednesday: DayAllowanceInput,
    thursday: DayAllowanceInput,
    friday: DayAllowanceInput,
    saturday: DayAllowanceInput,
    sunday: DayAllowanceInput,
  }),
  exemptKeychainIds: inputArray(Uuid),
  /** the dashboard's IANA time zone: the family's days are counted in it when it has none yet */
  timeZone: optionalInput(z.string().max(64)),
});
export type SaveScreenTimeInput = z.infer<typeof SaveScreenTimeInput>;

export const PauseInternetInput = inputObject({
  childId: Uuid,
  /** null: until the parent resumes */
  minutes: z.number().nullable(),
});
export type PauseInternetInput = z.infer<typeof PauseInternetInput>;

export const ResumeInternetInput = inputObject({ childId: Uuid });
export type ResumeInternetInput = z.infer<typeof ResumeInternetInput>;

export const DecideMoreTimeRequestInput = inputObject({
  id: Uuid,
  decision: z.discriminatedUnion('case', [
    inputObject({ case: z.literal('accepted'), minutes: z.number() }),
    inputObject({ case: z.literal('rejected') }),
  ]),
  responseComment: optionalInput(z.string().max(LIMITS.comment)),
});
export type DecideMoreTimeRequestInput = z.infer<typeof DecideMoreTimeRequestInput>;

export const User = z.object({
  id: Uuid,
  name: z.string(),
  keyloggingEnabled: z.boolean(),
  screenshotsEnabled: z.boolean(),
  screenshotsResolution: z.number(),
  screenshotsFrequency: z.number(),
  showSuspensionActivity: z.boolean(),
  keychains: z.array(UserKeychainSummary),
  downtime: PlainTimeWindow.optional(),
  devices: z.array(UserDevice),
  blockedApps: z.array(BlockedApp).optional(),
  createdAt: IsoDate,
  /** Issue 24: the built-in alert categories turned on (typed text; only while keylogging is on). */
  alertCategories: z.array(z.string()).optional(),
  /** Issue 24: the parent's own alert words and phrases for the child. */
  alertWords: z.array(z.string()).optional(),
  /** Issue 34: the daily allowance per day of the week, the exempt keychains, a pause */
  screenTime: ScreenTime.optional(),
});
export type User = z.infer<typeof User>;

// Names are neither trimmed nor required non-empty here: the server does that with a clear message.
export const SaveUserInput = inputObject({
  id: Uuid,
  isNew: z.boolean(),
  name: z.string().max(LIMITS.name),
  keyloggingEnabled: z.boolean(),
  screenshotsEnabled: z.boolean(),
  screenshotsResolution: z.number(),
  screenshotsFrequency: z.number().min(LIMITS.minScreenshotsFrequency),
  showSuspensionActivity: z.boolean(),
  downtime: optionalInput(PlainTimeWindow),
  keychains: inputArray(inputObject({ id: Uuid, schedule: optionalInput(RuleSchedule) })),
  blockedApps: optionalInput(inputArray(BlockedAppInput)),
  // issue 24: absent (as the reference dashboard sends it) leaves the child's alerts as they are
  alertCategories: optionalInput(inputArray(z.string().max(LIMITS.name))),
  alertWords: optionalInput(inputArray(z.string().max(LIMITS.name))),
});
export type SaveUserInput = z.infer<typeof SaveUserInput>;

// ---------------------------------------------------------------------------
// Activity

/** Issue 24: why a typed line was flagged on its own: the category and the listed words found. */
export const ActivityAlert = z.object({ category: z.string(), words: z.array(z.string()) });
export type ActivityAlert = z.infer<typeof ActivityAlert>;

export const UserActivityItem = z.discriminatedUnion('case', [
  z.object({
    case: z.literal('screenshot'),
    id: Uuid,
    ids: z.array(Uuid),
    url: z.string(),
    width: z.number(),
    height: z.number(),
    duringSuspension: z.boolean(),
    flagged: z.boolean(),
    createdAt: IsoDate,
    deletedAt: IsoDate.optional(),
  }),
  z.object({
    case: z.literal('keystrokeLine'),
    id: Uuid,
    ids: z.array(Uuid),
    appName: z.string(),
    line: z.string(),
    duringSuspension: z.boolean(),
    flagged: z.boolean(),
    createdAt: IsoDate,
    deletedAt: IsoDate.optional(),
    /** Issue 24: present only on a line that raised an alert (it is flagged too). */
    alert: ActivityAlert.optional(),
  }),
]);
export type UserActivityItem = z.infer<typeof UserActivityItem>;

export const DaySummary = z.object({
  date: IsoDate,
  numApproved: z.number(),
  numFlagged: z.number(),
  numTotal: z.number(),
  /** Issue 24: typed lines with an alert; present only when there are some. */
  numAlerts: z.number().optional(),
});
export type DaySummary = z.infer<typeof DaySummary>;

export const ActivityFeed = z.object({
  userName: z.string(),
  showSuspensionActivity: z.boolean(),
  numDeleted: z.number(),
  items: z.array(UserActivityItem),
});
export type ActivityFeed = z.infer<typeof ActivityFeed>;

/**
 * Issue 24: one child's week at a glance (ChildActivityInsights): the last 7 local days, today
 * included, in the parent's time zone.
 */
export const ChildActivityInsightsOutput = z.object({
  childName: z.string(),
  keyloggingEnabled: z.boolean(),
  /** Local midnight of the first of the 7 days. */
  weekStart: IsoDate,
  /** 7 days, oldest first: coalesced items, and of them the alerted and flagged ones. */
  days: z.array(
    z.object({
      date: IsoDate,
      numItems: z.number(),
      numAlerts: z.number(),
      numFlagged: z.number(),
    }),
  ),
  /** 24 counts of the week's items by local hour (index 0 = midnight to 1 am). */
  hours: z.array(z.number()),
  /** The apps typed in most (typed lines), most first, at most 5. */
  topApps: z.array(z.object({ appName: z.string(), numLines: z.number() })),
  /** The sites and apps asked for most in unlock requests, most first, at most 5. */
  topRequests: z.array(z.object({ target: z.string(), numRequests: z.number() })),
  numItems: z.number(),
  numFlagged: z.number(),
  numAlerts: z.number(),
  alertsByCategory: z.array(z.object({ category: z.string(), numAlerts: z.number() })),
  /** Seconds the filter was suspended by accepted suspension requests within the week. */
  suspendedSeconds: z.number(),
  /** Alert words the parent unflagged (reported as false alerts) for this child, most first. */
  falseAlerts: z.array(z.object({ category: z.string(), word: z.string(), count: z.number() })),
});
export type ChildActivityInsightsOutput = z.infer<typeof ChildActivityInsightsOutput>;

/** `toISOString()` values typed as plain strings (wire-contract §3.3); the server checks them. */
export const ActivityRange = z.object({ start: z.string(), end: z.string() });
export type ActivityRange = z.infer<typeof ActivityRange>;

export const SecurityEvent = z.discriminatedUnion('case', [
  z.object({
    case: z.literal('child'),
    id: Uuid,
    childId: Uuid,
    childName: z.string(),
    deviceId: Uuid,
    deviceName: z.string(),
    event: z.string(),
    detail: z.string().optional(),
    explanation: z.string(),
    createdAt: IsoDate,
  }),
  z.object({
    case: z.literal('admin'),
    id: Uuid,
    event: z.string(),
    detail: z.string().optional(),
    explanation: z.string(),
    ipAddress: z.string().optional(),
    location: z
      .object({
        city: z.string().optional(),
        region: z.string().optional(),
        countryCode: z.string().optional(),
      })
      .optional(),
    createdAt: IsoDate,
  }),
]);
export type SecurityEvent = z.infer<typeof SecurityEvent>;

// ---------------------------------------------------------------------------
// Unlock and filter-suspension requests

export const UnlockRequest = z.object({
  id: Uuid,
  userId: Uuid,
  userName: z.string(),
  status: RequestStatus,
  url: z.string().optional(),
  domain: z.string().optional(),
  ipAddress: z.string().optional(),
  requestComment: z.string().optional(),
  appName: z.string().optional(),
  appSlug: z.string().optional(),
  appBundleId: z.string().optional(),
  appCategories: z.array(z.string()),
  createdAt: IsoDate,
});
export type UnlockRequest = z.infer<typeof UnlockRequest>;

/** `deviceId` is the computer-user (link) id. */
export const SuspendFilterRequest = z.object({
  id: Uuid,
  deviceId: Uuid,
  status: RequestStatus,
  userName: z.string(),
  /** what the child asked for, before and after the decision (issue 32) */
  requestedDurationInSeconds: z.number(),
  /** Beyond the reference (issue 32): what was granted, once accepted */
  grantedDurationInSeconds: z.number().optional(),
  requestComment: z.string().optional(),
  responseComment: z.string().optional(),
  extraMonitoringOptions: z.record(z.string(), z.string()),
  createdAt: IsoDate,
});
export type SuspendFilterRequest = z.infer<typeof SuspendFilterRequest>;

/** A parent's decision on a filter suspension, as pushed to / checked in by the Mac (output form). */
export const FilterSuspensionDecision = z.discriminatedUnion('case', [
  z.object({
    case: z.literal('accepted'),
    durationInSeconds: z.number(),
    extraMonitoring: z.string().optional(),
  }),
  z.object({ case: z.literal('rejected') }),
]);
export type FilterSuspensionDecision = z.infer<typeof FilterSuspensionDecision>;

export const DecideFilterSuspensionRequestInput = inputObject({
  id: Uuid,
  decision: z.discriminatedUnion('case', [
    inputObject({
      case: z.literal('accepted'),
      durationInSeconds: z.number(),
      extraMonitoring: optionalInput(z.string().max(LIMITS.extraMonitoring)),
    }),
    inputObject({ case: z.literal('rejected') }),
  ]),
  responseComment: optionalInput(z.string().max(LIMITS.comment)),
});
export type DecideFilterSuspensionRequestInput = z.infer<typeof DecideFilterSuspensionRequestInput>;

// ---------------------------------------------------------------------------
// Devices of every kind, and what waits for the parent (beyond the reference, issue 20)

/** The kinds of a child's device: a Mac (a computer user of a computer) and an iPhone or iPad. */
/** A device as the parent sees it: a Mac, an iPhone or iPad, or a browser with Keyward for Chrome. */
export const DeviceKind = z.enum(['mac', 'ios', 'browser', 'dns']);
export type DeviceKind = z.infer<typeof DeviceKind>;

/**
 * A device of a child, whatever its kind. `id` is the computer-user id for a Mac (one per child
 * and computer) and the device id for iOS; `path` is its dashboard page. `status` is the live
 * filter status where the server knows it (Macs); an iOS device reports no presence, only when it
 * last fetched its rules (`lastSeenAt`).
 */
export const FamilyDevice = z.object({
  kind: DeviceKind,
  id: Uuid,
  childId: Uuid,
  childName: z.string(),
  name: z.string(),
  model: z.string(),
  path: z.string(),
  status: ChildComputerStatus.optional(),
  lastSeenAt: IsoDate.optional(),
  osVersion: z.string().optional(),
  appVersion: z.string().optional(),
  modelFamily: DeviceModelFamily.optional(),
  /** waiting requests (issue 31: unlock requests counted up to 1,000 per device) */
  pendingRequests: z.number(),
});
export type FamilyDevice = z.infer<typeof FamilyDevice>;

const InboxItemBase = {
  id: Uuid,
  childId: Uuid,
  childName: z.string(),
  device: z.object({ kind: DeviceKind, id: Uuid, name: z.string() }),
  createdAt: IsoDate,
  requestComment: z.string().optional(),
};

/** One pending request of a child, of either kind, from a device of any kind. */
export const InboxItem = z.discriminatedUnion('case', [
  z.object({
    case: z.literal('suspension'),
    ...InboxItemBase,
    requestedDurationInSeconds: z.number(),
    extraMonitoringOptions: z.record(z.string(), z.string()),
  }),
  z.object({
    case: z.literal('unlock'),
    ...InboxItemBase,
    target: z.string(),
    appName: z.string().optional(),
  }),
]);
export type InboxItem = z.infer<typeof InboxItem>;

/** Issue 32: a child's alerts still to look at (typed lines that raised one, still flagged and
 * unreviewed): a safety alert needs the parent as much as a request does. */
export const InboxAlerts = z.object({
  childId: Uuid,
  childName: z.string(),
  count: z.number(),
  /** most serious first (alert-categories order) */
  categories: z.array(z.string()),
  latestAt: IsoDate,
});
export type InboxAlerts = z.infer<typeof InboxAlerts>;

/** Issue 34: a child's pending request for more time today (from the Time's up page). */
export const MoreTimeInboxItem = z.object({
  id: Uuid,
  childId: Uuid,
  childName: z.string(),
  device: z.object({ kind: DeviceKind, id: Uuid, name: z.string() }),
  createdAt: IsoDate,
  requestComment: z.string().optional(),
  requestedMinutes: z.number(),
});
export type MoreTimeInboxItem = z.infer<typeof MoreTimeInboxItem>;

/**
 * What waits for the parent, newest first (suspension requests under 2 hours old). Issue 31: each
 * child's newest requests up to a page (PENDING_SHOWN_PER_CHILD in packages/domain); `more` counts,
 * per child, the pending requests left out ("and N more").
 */
export const InboxOutput = z.object({
  items: z.array(InboxItem),
  /** Issue 32: the children's alerts to look at, the latest first */
  alerts: z.array(InboxAlerts),
  /** Issue 34: requests for more screen time today, newest first */
  moreTime: z.array(MoreTimeInboxItem).optional(),
  more: z
    .array(
      z.object({
        childId: Uuid,
        childName: z.string(),
        count: z.number(),
        /** a device's requests are counted up to 1,000: there may be more */
        isAtLeast: z.literal(true).optional(),
      }),
    )
    .optional(),
});
export type InboxOutput = z.infer<typeof InboxOutput>;

// ---------------------------------------------------------------------------
// Home page, deletion, apps, iOS

export const DashboardWidgetsOutput = z.object({
  children: z.array(
    z.object({
      id: Uuid,
      name: z.string(),
      status: ChildComputerStatus,
      numDevices: z.number(),
    }),
  ),
  childActivitySummaries: z.array(
    z.object({
      id: Uuid,
      name: z.string(),
      numUnreviewed: z.number(),
      numReviewed: z.number(),
    }),
  ),
  unlockRequests: z.array(
    z.object({
      id: Uuid,
      childId: Uuid,
      childName: z.string(),
      target: z.string(),
      comment: z.string().optional(),
      createdAt: IsoDate,
    }),
  ),
  recentScreenshots: z.array(
    z.object({ id: Uuid, childName: z.string(), url: z.string(), createdAt: IsoDate }),
  ),
  numParentNotifications: z.number(),
  announcement: z
    .object({
      id: Uuid,
      icon: z.string().optional(),
      html: z.string(),
      learnMoreUrl: z.string().optional(),
    })
    .optional(),
});
export type DashboardWidgetsOutput = z.infer<typeof DashboardWidgetsOutput>;

/** An ordinary enum field of DeleteEntity_v2, not a union tag. */
export const DeletableEntityType = z.enum([
  'announcement',
  'child',
  'computerUser',
  'parent',
  'parentNotification',
  'parentVerifiedNotificationMethod',
  'key',
  'keychain',
  'blockRule',
]);
export type DeletableEntityType = z.infer<typeof DeletableEntityType>;

export const IdentifiedApp = z.object({
  id: Uuid,
  name: z.string(),
  slug: z.string(),
  launchable: z.boolean(),
  bundleIds: z.array(z.object({ id: Uuid, bundleId: z.string() })),
  category: z.object({ id: Uuid, name: z.string(), slug: z.string() }).optional(),
});
export type IdentifiedApp = z.infer<typeof IdentifiedApp>;

export const GetIOSDeviceOutput = z.object({
  childName: z.string(),
  deviceType: z.string(),
  osVersion: z.string(),
  allBlockGroups: z.array(z.object({ id: Uuid, name: z.string() })),
  enabledBlockGroups: z.array(Uuid),
  webPolicy: WebPolicy,
  webPolicyDomains: z.array(z.string()),
  customBlockRules: z.array(z.object({ id: Uuid, rule: BlockRule })),
  /** Beyond the reference: the device's child, for links to its suspension requests. */
  childId: Uuid.optional(),
  /** Beyond the reference: the device's suspension requests still waiting for a decision. */
  pendingSuspensionRequests: z
    .array(
      z.object({
        id: Uuid,
        createdAt: IsoDate,
        /** seconds */
        duration: z.number(),
        comment: z.string().optional(),
      }),
    )
    .optional(),
});
export type GetIOSDeviceOutput = z.infer<typeof GetIOSDeviceOutput>;

// ---------------------------------------------------------------------------
// Two-factor sign-in and data export (beyond the reference, issue 12)

/** How a person can finish signing in after the password or magic link. */
export const SecondFactorMethod = z.enum(['totp', 'passkey']);

/**
 * With a second factor on, Login and LoginMagicLink answer a short-lived, single-use challenge
 * instead of a session; LoginSecondFactor or FinishPasskeyLogin redeem it.
 */
export const SecondFactorChallengeOutput = z.object({
  secondFactorChallenge: Uuid,
  /** Which second factors the person has; absent = only an authenticator code. */
  secondFactorMethods: z.array(SecondFactorMethod).optional(),
});

/** A session, as every sign-in answers it. */
export const SessionOutput = z.object({ adminId: Uuid, token: Uuid });

/** Login / LoginMagicLink: a session (no second factor: today's shape) or a challenge. */
export const SessionOrChallengeOutput = z.union([SessionOutput, SecondFactorChallengeOutput]);

/** A second factor code: 6 digits from an authenticator app, or a recovery code. */
export const SecondFactorCode = z.string().trim().min(1).max(64);

/** WebAuthn options and responses travel as the library's JSON objects (@simplewebauthn). */
export const WebAuthnJson = z.looseObject({});

export const Passkey = z.object({
  id: Uuid,
  name: z.string(),
  createdAt: IsoDate,
  lastUsedAt: IsoDate.optional(),
});

export const SignInSecurity = z.object({
  totpEnabled: z.boolean(),
  /** Unused recovery codes left (0 without an authenticator app). */
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(Passkey),
});

export const DataExportStatus = z.enum(['pending', 'building', 'ready', 'failed', 'expired']);

export const DataExportOutput = z.object({
  status: DataExportStatus,
  /** 0–100 */
  progress: z.number(),
  /** A signed download link, while the ZIP is ready and the link has not expired. */
  url: z.string().optional(),
  /** When the download link stops working. */
  expiresAt: IsoDate.optional(),
});

// ---------------------------------------------------------------------------
// Co-parents and the audit log (beyond the reference, issue 12)

export const ParentRole = z.enum(['owner', 'coParent']);
export type ParentRole = z.infer<typeof ParentRole>;

/** One adult of the family account (GetParents). */
export const FamilyParent = z.object({
  id: Uuid,
  email: z.string(),
  role: ParentRole,
  status: z.enum(['active', 'invited']),
});
export type FamilyParent = z.infer<typeof FamilyParent>;

/** One field an audited change touched; secrets are never recorded. */
export const AuditChange = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AuditChange = z.infer<typeof AuditChange>;

export const AuditLogEntry = z.object({
  id: Uuid,
  at: IsoDate,
  personId: Uuid,
  personEmail: z.string(),
  operation: z.string(),
  entityType: z.string(),
  entityId: Uuid.optional(),
  /** The change in words: "dana@example.com changed child Sam: screenshots off → on". */
  summary: z.string(),
  /** Beyond the issue: the changed fields one by one. */
  changes: z.array(AuditChange).optional(),
  /** Beyond the issue: the child the change concerns, when there is one. */
  childId: Uuid.optional(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

export const GetAuditLogOutput = z.object({
  entries: z.array(AuditLogEntry),
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore: IsoDate.optional(),
});
export type GetAuditLogOutput = z.infer<typeof GetAuditLogOutput>;
