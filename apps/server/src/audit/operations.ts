import type { StoredMethodConfig } from '../notifications/method-config.ts';
import type { Db } from '../db/database.ts';
import { fromDbBool, fromDbJson } from '../db/values.ts';
import {
  ownedBlockRule,
  ownedChild,
  ownedComputer,
  ownedComputerUser,
  ownedIosDevice,
  ownedKey,
  ownedKeychain,
  ownedMoreTimeRequest,
  ownedNotification,
  ownedNotificationMethod,
  ownedSuspensionRequest,
  ownedUnlockRequest,
} from '../operations/ownership.ts';
import { PqlFailure } from '../pairql/errors.ts';
import { alertCategoryLabel } from '@keyward/domain/alert-categories';
import { storedAlertCategories, storedAlertWords } from '../activity/alerts.ts';
import { storedAllowance, storedExempt } from '../children/screen-time.ts';
import { type Allowance, dayName, minutesInWords, WEEKDAYS } from '@keyward/domain/screen-time';

// The audit log's one place (issue 12): which dashboard operations change nothing, which are the
// sign-in flows recorded as security events instead, and, for every other operation, what entity
// it changes and how to read that entity's fields. The router (http/pairql.ts → audit/record.ts)
// snapshots the entity before and after the resolver's writes, in their transaction
// (audit/unit-of-work.ts), and writes one entry with the fields that changed. test/audit-log.test.ts walks the contract: a new operation must be listed here.
// Snapshots go through operations/ownership.ts, so another family's id reads as nothing.
// Secrets (password hashes, tokens, codes, Slack tokens) are never part of a snapshot.

/** Operations that change nothing a parent would audit (reads, and a client-side log line). */
export const READ_ONLY_OPERATIONS: ReadonlySet<string> = new Set([
  'ChildActivityInsights',
  'ChildActivitySummaries',
  'CombinedUsersActivityFeed',
  'DashboardWidgets',
  'FamilyActivitySummaries',
  'GetAdmin',
  'GetAdminKeychain',
  'GetAdminKeychains',
  'GetAuditLog',
  'GetDataExport',
  'GetDevice',
  'GetDevices',
  'GetDnsDevice',
  'GetFamilyDevices',
  'GetIdentifiedApps',
  'GetInbox',
  'GetIOSDevice',
  'GetParents',
  'GetPushSubscriptions',
  'GetWeeklyReport',
  'GetSelectableKeychains',
  'GetSignInSecurity',
  'GetSuspendFilterRequest',
  'GetUnlockRequest',
  'GetUnlockRequests',
  'GetUnlockRequestsPage',
  'GetUser',
  'GetScreenTime',
  'GetUserUnlockRequests',
  'GetUsers',
  'IOSDevices',
  'LatestAppVersions',
  // a diagnostic line the dashboard sends about itself (app_events), not a family change
  'LogEvent',
  'SecurityEventsFeed',
  // answers a billing portal / checkout URL; the change is made by HandleCheckout* and Stripe
  'StripeUrl',
  'UserActivityFeed',
]);

/** Signing in and out: no family data changes; they are recorded as security events. */
export const SIGN_IN_OPERATIONS: ReadonlySet<string> = new Set([
  'AcceptParentInvite',
  'FinishPasskeyLogin',
  'Login',
  'LoginMagicLink',
  'LoginSecondFactor',
  'Logout',
  'RequestMagicLink',
  'ResetPassword',
  'SaveConferenceEmail',
  'SendPasswordResetEmail',
  'Signup',
  'StartPasskeyLogin',
  'VerifySignupEmail',
]);

export interface Snapshot {
  /** the entity's id when the input does not carry it (InviteParent names an email) */
  id?: string;
  /** how the entity is named in words: the child's name, the keychain's name… */
  label: string;
  childId?: string;
  fields: Record<string, string | null>;
}

// biome-ignore lint/suspicious/noExplicitAny: inputs and outputs come from the contract, per operation
type Input = any;

export interface AuditDescriptor {
  entityType: string | ((input: Input) => string);
  /** The entity's id; `output` is undefined before the resolver ran. */
  entityId?: (input: Input, output: unknown) => string | undefined;
  snapshot?: (db: Db, parentId: string, id: string, input: Input) => Promise<Snapshot | undefined>;
  /** Words for the entry, before the changed fields ("deleted 3 screenshots"). */
  describe?: (input: Input) => string;
  /** Words only when no snapshot names the entity (a type without a snapshot function). */
  fallback?: (input: Input) => string;
  /** The child concerned when no snapshot names it. */
  childId?: (input: Input) => string | undefined;
}

const onOff = (value: unknown) => (fromDbBool(value) ? 'on' : 'off');
const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(fromDbJson(value));

/** An ownership helper's notFound becomes "nothing there". */
async function orNothing<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof PqlFailure && error.details.type === 'notFound') return undefined;
    throw error;
  }
}

async function childSnapshot(db: Db, parentId: string, id: string): Promise<Snapshot | undefined> {
  const child = await orNothing(ownedChild(db, parentId, id));
  if (!child) return undefined;
  const keychains = await db
    .selectFrom('child_keychains as ck')
    .innerJoin('keychains as k', 'k.id', 'ck.keychain_id')
    .select('k.name')
    .where('ck.child_id', '=', child.id)
    .orderBy('k.name')
    .execute();
  return {
    label: child.name,
    childId: child.id,
    fields: {
      name: child.name,
      'keystroke monitoring': onOff(child.keylogging_enabled),
      screenshots: onOff(child.screenshots_enabled),
      'screenshot resolution': String(child.screenshots_resolution),
      'screenshot frequency': String(child.screenshots_frequency),
      'suspension activity shown': onOff(child.show_suspension_activity),
      downtime: json(child.downtime),
      keychains: keychains.map((k) => k.name).join(', '),
      // issue 24
      alerts:
        storedAlertCategories(child.alert_categories).map(alertCategoryLabel).join(', ') || 'none',
      'own alert words': storedAlertWords(child.alert_words).join(', '),
      // issue 34
      'screen time': allowanceInWords(storedAllowance(child.screen_time_allowance)),
      "keychains that don't use up time": String(storedExempt(child.screen_time_exempt).length),
      paused: child.paused_at === null ? 'no' : (child.paused_until ?? 'until resumed'),
    },
  };
}

/** Issue 34: 'Monday 2 hours, …, Sunday no limit', or 'no limit'. */
function allowanceInWords(allowance: Allowance): string {
  if (WEEKDAYS.every((day) => allowance[day] === null)) return 'no limit';
  return WEEKDAYS.map((day) => {
    const minutes = allowance[day];
    return `${dayName(day)} ${minutes === null ? 'no limit' : minutesInWords(minutes)}`;
  }).join(', ');
}

async function moreTimeSnapshot(db: Db, parentId: string, id: string) {
  const request = await orNothing(ownedMoreTimeRequest(db, parentId, id));
  if (!request) return undefined;
  return {
    label: `${request.child_name}: ${minutesInWords(request.requested_minutes)} more`,
    childId: request.child_id,
    fields: {
      status: request.status,
      'time granted':
        request.granted_minutes === null ? null : minutesInWords(request.granted_minutes),
      'response comment': request.response_comment,
    },
  };
}

async function keychainSnapshot(db: Db, parentId: string, id: string) {
  const keychain = await orNothing(ownedKeychain(db, parentId, id));
  if (!keychain) return undefined;
  return {
    label: keychain.name,
    fields: { name: keychain.name, description: keychain.description },
  };
}

async function keySnapshot(db: Db, parentId: string, id: string) {
  const key = await orNothing(ownedKey(db, parentId, id));
  if (!key || key.deleted_at !== null) return undefined;
  return { label: json(key.key) ?? '', fields: { key: json(key.key), comment: key.comment } };
}

function methodWords(config: StoredMethodConfig): Record<string, string | null> {
  switch (config.case) {
    case 'email':
      return { kind: 'email', address: config.email };
    case 'text':
      return { kind: 'text', address: config.phoneNumber };
    case 'slack':
      // the bot token is a secret: only the channel is recorded
      return { kind: 'slack', address: config.channelName };
    case 'push':
      // issue 23: the browser's subscription is a secret: only what the browser called itself
      return { kind: 'push', address: config.label };
  }
}

async function methodSnapshot(db: Db, parentId: string, id: string) {
  const method = await orNothing(ownedNotificationMethod(db, parentId, id));
  if (!method) return undefined;
  const fields = methodWords(fromDbJson<StoredMethodConfig>(method.config));
  return { label: `${fields.kind} ${fields.address}`, fields };
}

async function notificationSnapshot(db: Db, parentId: string, id: string) {
  const rule = await orNothing(ownedNotification(db, parentId, id));
  if (!rule) return undefined;
  const method = await orNothing(ownedNotificationMethod(db, parentId, rule.method_id));
  const to = method ? methodWords(fromDbJson<StoredMethodConfig>(method.config)) : undefined;
  return {
    label: rule.trigger,
    fields: { trigger: rule.trigger, method: to ? `${to.kind} ${to.address}` : rule.method_id },
  };
}

async function unlockRequestSnapshot(db: Db, parentId: string, id: string) {
  const request = await orNothing(ownedUnlockRequest(db, parentId, id));
  if (!request) return undefined;
  return {
    label: `of ${request.child_name} for ${request.hostname ?? request.url ?? request.app_bundle_id}`,
    childId: request.child_id,
    fields: { status: request.status, 'response comment': request.response_comment },
  };
}

async function suspensionSnapshot(db: Db, parentId: string, id: string) {
  const request = await orNothing(ownedSuspensionRequest(db, parentId, id));
  if (!request) return undefined;
  return {
    label: `of ${request.childName}`,
    childId: request.childId,
    fields: {
      status: request.status,
      duration: String(request.duration),
      'response comment': request.responseComment,
      'extra monitoring': request.extraMonitoring,
    },
  };
}

async function computerSnapshot(db: Db, parentId: string, id: string) {
  const computer = await orNothing(ownedComputer(db, parentId, id));
  if (!computer) return undefined;
  return {
    label: computer.custom_name ?? computer.model_identifier,
    fields: { name: computer.custom_name, 'release channel': computer.app_release_channel },
  };
}

async function computerUserSnapshot(db: Db, parentId: string, id: string) {
  const user = await orNothing(ownedComputerUser(db, parentId, id));
  if (!user) return undefined;
  return { label: user.username, childId: user.child_id, fields: { username: user.username } };
}

async function iosDeviceSnapshot(db: Db, parentId: string, id: string) {
  const device = await orNothing(ownedIosDevice(db, parentId, id));
  if (!device) return undefined;
  const groups = await db
    .selectFrom('ios_device_block_groups as dg')
    .innerJoin('ios_block_groups as g', 'g.id', 'dg.block_group_id')
    .select('g.name')
    .where('dg.device_id', '=', device.id)
    .orderBy('g.name')
    .execute();
  const domains = await db
    .selectFrom('ios_web_policy_domains')
    .select('domain')
    .where('device_id', '=', device.id)
    .orderBy('domain')
    .execute();
  return {
    label: `${device.device_type} of ${device.child_name}`,
    childId: device.child_id,
    fields: {
      'web policy': device.web_policy,
      'block groups': groups.map((g) => g.name).join(', '),
      'web policy domains': domains.map((d) => d.domain).join(', '),
    },
  };
}

async function blockRuleSnapshot(db: Db, parentId: string, id: string) {
  const rule = await orNothing(ownedBlockRule(db, parentId, id));
  if (!rule) return undefined;
  return { label: json(rule.rule) ?? '', fields: { rule: json(rule.rule), comment: rule.comment } };
}

async function accountSnapshot(db: Db, parentId: string) {
  const parent = await db
    .selectFrom('parents')
    .select(['email', 'subscription_status'])
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent) return undefined;
  return {
    label: parent.email,
    fields: { email: parent.email, subscription: parent.subscription_status },
  };
}

async function weeklyReportSnapshot(db: Db, parentId: string) {
  const parent = await db
    .selectFrom('parents')
    .select(['email', 'weekly_report', 'time_zone'])
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent) return undefined;
  return {
    label: parent.email,
    fields: { 'weekly report': onOff(parent.weekly_report), 'time zone': parent.time_zone },
  };
}

async function coParentSnapshot(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('co_parents')
    .select(['email', 'status'])
    .where('id', '=', id)
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { label: row.email, fields: { email: row.email, status: row.status } };
}

async function coParentByEmail(db: Db, parentId: string, _id: string, input: Input) {
  const row = await db
    .selectFrom('co_parents')
    .select(['id', 'email', 'status'])
    .where('email', '=', String(input.email).trim().toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, label: row.email, fields: { email: row.email, status: row.status } };
}

const DELETE_SNAPSHOTS: Record<string, NonNullable<AuditDescriptor['snapshot']>> = {
  child: childSnapshot,
  computerUser: computerUserSnapshot,
  parent: (db, parentId) => accountSnapshot(db, parentId),
  parentNotification: notificationSnapshot,
  parentVerifiedNotificationMethod: methodSnapshot,
  key: keySnapshot,
  keychain: keychainSnapshot,
  blockRule: blockRuleSnapshot,
};

const DELETE_ENTITY_TYPES: Record<string, string> = {
  parent: 'account',
  parentNotification: 'notification',
  parentVerifiedNotificationMethod: 'notificationMethod',
};

const byId = (input: Input) => input.id as string;
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Every mutating dashboard operation and what it changes. */
export const AUDITED_OPERATIONS: Record<string, AuditDescriptor> = {
  ConfirmPendingNotificationMethod: {
    entityType: 'notificationMethod',
    entityId: byId,
    snapshot: methodSnapshot,
  },
  ConfirmTotpEnrolment: {
    entityType: 'signInSecurity',
    describe: () => 'turned on the authenticator app',
  },
  CreatePendingAppConnection: {
    entityType: 'child',
    entityId: (input) => input.userId,
    childId: (input) => input.userId,
    describe: () => 'created a code to connect a computer',
  },
  CreateDnsDevice: {
    entityType: 'child',
    entityId: (input) => input.childId,
    childId: (input) => input.childId,
    describe: (input) => `connected a device to Keyward DNS: ${input.name}`,
  },
  CreatePendingNotificationMethod: {
    entityType: 'pendingNotificationMethod',
    entityId: (_input, output) => (output as { methodId?: string } | undefined)?.methodId,
    describe: (input) => `started adding a ${input.case} notification method`,
  },
  DecideFilterSuspensionRequest: {
    entityType: 'suspensionRequest',
    entityId: byId,
    snapshot: suspensionSnapshot,
  },
  DecideMoreTimeRequest: {
    entityType: 'moreTimeRequest',
    entityId: byId,
    snapshot: moreTimeSnapshot,
  },
  DeletePushSubscription: {
    entityType: 'notificationMethod',
    entityId: byId,
    snapshot: methodSnapshot,
  },
  DeleteActivityItems_v2: {
    entityType: 'activity',
    describe: (input) =>
      `deleted ${count(input.screenshotIds.length, 'screenshot')} and ${count(input.keystrokeLineIds.length, 'typed line')}`,
  },
  DeleteEntity_v2: {
    entityType: (input) => DELETE_ENTITY_TYPES[input.type] ?? input.type,
    entityId: byId,
    snapshot: (db, parentId, id, input) =>
      DELETE_SNAPSHOTS[input.type]?.(db, parentId, id, input) ?? Promise.resolve(undefined),
    fallback: (input) => {
      const type = String(input.type)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase();
      return `deleted ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    },
  },
  DisableTotp: { entityType: 'signInSecurity', describe: () => 'turned off the authenticator app' },
  FinishPasskeyRegistration: { entityType: 'signInSecurity', describe: () => 'added a passkey' },
  FlagActivityItems: {
    entityType: 'activity',
    describe: (input) => `flagged ${count(input.length, 'activity item')}`,
  },
  HandleCheckoutCancel: {
    entityType: 'account',
    entityId: () => '',
    snapshot: (db, parentId) => accountSnapshot(db, parentId),
    describe: () => 'cancelled a checkout',
  },
  HandleCheckoutSuccess: {
    entityType: 'account',
    entityId: () => '',
    snapshot: (db, parentId) => accountSnapshot(db, parentId),
    describe: () => 'completed a checkout',
  },
  InviteParent: {
    entityType: 'coParent',
    entityId: (input) => input.email,
    snapshot: coParentByEmail,
  },
  RemoveParent: { entityType: 'coParent', entityId: byId, snapshot: coParentSnapshot },
  RemovePasskey: { entityType: 'signInSecurity', describe: () => 'removed a passkey' },
  RequestDataExport: { entityType: 'dataExport', describe: () => 'asked for a data export' },
  RequestPublicKeychain: {
    entityType: 'keychainRequest',
    describe: (input) => `asked for a public keychain "${input.searchQuery}"`,
  },
  SaveDevice: { entityType: 'computer', entityId: byId, snapshot: computerSnapshot },
  SaveKey: {
    entityType: 'key',
    entityId: byId,
    snapshot: keySnapshot,
  },
  SaveKeychain: { entityType: 'keychain', entityId: byId, snapshot: keychainSnapshot },
  SavePushSubscription: {
    entityType: 'notificationMethod',
    entityId: (input, output) => (output as { id?: string } | undefined)?.id ?? input.id,
    snapshot: methodSnapshot,
  },
  SaveWeeklyReport: {
    entityType: 'account',
    entityId: () => '',
    snapshot: weeklyReportSnapshot,
  },
  SaveNotification: { entityType: 'notification', entityId: byId, snapshot: notificationSnapshot },
  SaveUser: { entityType: 'child', entityId: byId, snapshot: childSnapshot },
  StartPasskeyRegistration: {
    entityType: 'signInSecurity',
    describe: () => 'started adding a passkey',
  },
  StartTotpEnrolment: {
    entityType: 'signInSecurity',
    describe: () => 'started setting up the authenticator app',
  },
  SaveScreenTime: {
    entityType: 'child',
    entityId: (input) => input.childId,
    snapshot: childSnapshot,
  },
  PauseInternet: {
    entityType: 'child',
    entityId: (input) => input.childId,
    snapshot: childSnapshot,
  },
  ResumeInternet: {
    entityType: 'child',
    entityId: (input) => input.childId,
    snapshot: childSnapshot,
  },
  ToggleChildKeychain: {
    entityType: 'child',
    entityId: (input) => input.childId,
    snapshot: childSnapshot,
  },
  UpdateIOSDevice: {
    entityType: 'iosDevice',
    entityId: (input) => input.deviceId,
    snapshot: iosDeviceSnapshot,
  },
  UpdateUnlockRequest: {
    entityType: 'unlockRequest',
    entityId: byId,
    snapshot: unlockRequestSnapshot,
  },
  UpsertBlockRule: {
    entityType: 'blockRule',
    entityId: (input, output) => input.id ?? (typeof output === 'string' ? output : undefined),
    snapshot: blockRuleSnapshot,
  },
};
