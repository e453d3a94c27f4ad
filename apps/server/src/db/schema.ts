import type { ColumnType, Generated } from 'kysely';

// Kysely types for every table of server-behaviour §1. Portable representation (see values.ts):
// - ids: lowercase TEXT uuid strings
// - timestamps (`Ts`): TEXT `YYYY-MM-DDTHH:MM:SS.sssZ` on BOTH dialects (write with `toDbTime`)
// - booleans (`DbBool`): SQLite INTEGER 0/1, PostgreSQL boolean; write `toDbBool(b)`, read `fromDbBool(v)`
// - json (`DbJson`): SQLite TEXT, PostgreSQL jsonb; write `toDbJson(v)`, read `fromDbJson<T>(v)`
// - bigint (`DbBigInt`): PostgreSQL returns a string; read with `fromDbInt(v)`

export type Ts = string;
export type DbBool = ColumnType<number | boolean, number, number>;
export type DbJson = ColumnType<unknown, string, string>;
export type DbBigInt = ColumnType<number | string, number, number>;

export type SubscriptionStatus =
  | 'pendingEmailVerification'
  | 'trialing'
  | 'trialExpiringSoon'
  | 'overdue'
  | 'paid'
  | 'unpaid'
  | 'pendingAccountDeletion'
  | 'complimentary';
export type NotificationTrigger =
  | 'unlockRequestSubmitted'
  | 'suspendFilterRequestSubmitted'
  | 'adminChildSecurityEvent'
  | 'activityAlert';
export type ReleaseChannel = 'stable' | 'beta' | 'canary';
export type RequestStatus = 'pending' | 'accepted' | 'rejected';
export type WebPolicy = 'allowAll' | 'blockAdult' | 'blockAdultAnd' | 'blockAllExcept' | 'blockAll';
export type TokenPurpose = 'magicLink' | 'passwordReset' | 'emailVerification';
export type ConferenceSource = 'workshop' | 'booth';

// §1.2 parent side
export interface ParentsTable {
  id: string;
  email: string;
  password_hash: string;
  subscription_id: string | null;
  subscription_status: SubscriptionStatus;
  subscription_status_expiration: Ts;
  monthly_price: ColumnType<number, number | undefined, number>;
  gclid: string | null;
  created_at: Ts;
  updated_at: Ts;
  /** Issue 23: the weekly report email, on by default */
  weekly_report: ColumnType<number | boolean, number | undefined, number>;
  /** Issue 23: IANA time zone the dashboard reported (null: UTC), for the report's evening */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface DashboardSessionsTable {
  id: string;
  token_hash: string;
  parent_id: string;
  /** The co-parent this session is for; null = the account owner. */
  person_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Ts;
  expires_at: Ts;
  revoked_at: Ts | null;
}
export interface NotificationMethodsTable {
  id: string;
  parent_id: string;
  /** The co-parent who made it; null = the account owner. */
  person_id: ColumnType<string | null, string | null | undefined, string | null>;
  config: DbJson;
  config_fingerprint: string;
  created_at: Ts;
}
export interface NotificationsTable {
  id: string;
  parent_id: string;
  /** The co-parent who made it; null = the account owner. */
  person_id: ColumnType<string | null, string | null | undefined, string | null>;
  method_id: string;
  trigger: NotificationTrigger;
  created_at: Ts;
}
export interface AnnouncementsTable {
  id: string;
  parent_id: string;
  icon: string | null;
  html: string;
  learn_more_url: string | null;
  created_at: Ts;
  deleted_at: Ts;
}
export interface KeychainsTable {
  id: string;
  parent_id: string;
  name: string;
  description: string | null;
  warning: string | null;
  is_public: DbBool;
  created_at: Ts;
  updated_at: Ts;
}
export interface KeysTable {
  id: string;
  keychain_id: string;
  key: DbJson;
  comment: string | null;
  created_at: Ts;
  updated_at: Ts;
  deleted_at: Ts | null;
}
export interface ChildrenTable {
  id: string;
  parent_id: string;
  name: string;
  keylogging_enabled: DbBool;
  screenshots_enabled: DbBool;
  screenshots_resolution: number;
  screenshots_frequency: number;
  show_suspension_activity: DbBool;
  downtime: DbJson | null;
  created_at: Ts;
  updated_at: Ts;
  /** Issue 24: built-in alert categories turned on (json string array). */
  alert_categories: ColumnType<unknown, string | undefined, string>;
  /** Issue 24: the parent's own alert words (json string array). */
  alert_words: ColumnType<unknown, string | undefined, string>;
  /** Issue 34: minutes allowed per day of the week (json); null: no limit on any day */
  screen_time_allowance: ColumnType<unknown, string | null | undefined, string | null>;
  /** Issue 34: keychains that never use up time (json id array) */
  screen_time_exempt: ColumnType<unknown, string | undefined, string>;
  /** Issue 34: set while the internet is paused */
  paused_at: ColumnType<Ts | null, Ts | null | undefined, Ts | null>;
  /** Issue 34: when the pause ends; null with paused_at: until the parent resumes */
  paused_until: ColumnType<Ts | null, Ts | null | undefined, Ts | null>;
}
/** Issue 34: a minute a browser counted (its start), once per browser. */
export interface ScreenTimeMinutesTable {
  computer_user_id: string;
  child_id: string;
  minute: Ts;
  site: string;
}
/** Issue 34: a child's request for more screen time today. */
export interface MoreTimeRequestsTable {
  id: string;
  child_id: string;
  computer_user_id: string;
  /** the family's local date (YYYY-MM-DD) the request is for */
  day: string;
  requested_minutes: number;
  granted_minutes: number | null;
  status: RequestStatus;
  request_comment: string | null;
  response_comment: string | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface ComputersTable {
  id: string;
  parent_id: string;
  custom_name: string | null;
  model_identifier: string;
  serial_number: string;
  app_release_channel: ColumnType<ReleaseChannel, ReleaseChannel | undefined, ReleaseChannel>;
  filter_version: string | null;
  os_version: string | null;
  /** issue 22: `browser` for Keyward for Chrome (then `platform` and `browser` are set) */
  kind: ColumnType<ComputerKind, ComputerKind | undefined, ComputerKind>;
  platform: string | null;
  browser: string | null;
  /**
   * issue 33: a DNS device's Apple profile removal password when the parent set one, encrypted
   * (services/tokens.ts `encrypt`; `cleared` for one kept before migration 0027, which never
   * decrypts)
   */
  dns_removal_password_encrypted: ColumnType<
    string | null,
    string | null | undefined,
    string | null
  >;
  created_at: Ts;
  updated_at: Ts;
}
export type ComputerKind = 'mac' | 'browser' | 'dns';

/** Issue 33: names Keyward DNS blocked on a device, kept 24 hours (dns/blocked-names.ts) */
export interface DnsBlockedNamesTable {
  computer_user_id: string;
  name: string;
  count: number;
  last_at: Ts;
}

/** Issue 33: the names a DNS device resolved (as dns_blocked_names, for its page's top names). */
export type DnsAllowedNamesTable = DnsBlockedNamesTable;

/** Issue 33: per DNS device and hour (its start), queries and blocked ones; kept 48 hours. */
export interface DnsQueryHoursTable {
  computer_user_id: string;
  hour: Ts;
  queries: number;
  blocked: number;
}

// §1.3 child side
export interface ComputerUsersTable {
  id: string;
  child_id: string;
  computer_id: string;
  app_version: ColumnType<string, string | undefined, string>;
  username: string;
  full_username: string;
  numeric_id: DbBigInt;
  is_admin: DbBool | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface MacAppTokensTable {
  id: string;
  token_hash: string;
  child_id: string;
  computer_user_id: string;
  created_at: Ts;
  updated_at: Ts;
  deleted_at: Ts | null;
}
export interface ChildKeychainsTable {
  id: string;
  child_id: string;
  keychain_id: string;
  schedule: DbJson | null;
  created_at: Ts;
}
export interface BlockedMacAppsTable {
  id: string;
  child_id: string;
  identifier: string;
  schedule: DbJson | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface IosDevicesTable {
  id: string;
  child_id: string;
  vendor_id: string;
  device_type: string;
  app_version: string;
  ios_version: string;
  web_policy: ColumnType<WebPolicy, WebPolicy | undefined, WebPolicy>;
  created_at: Ts;
  updated_at: Ts;
}
export interface IosAppTokensTable {
  id: string;
  token_hash: string;
  device_id: string;
  created_at: Ts;
  updated_at: Ts;
}

// §1.4 activity, requests, iOS rules
export interface ScreenshotsTable {
  id: string;
  computer_user_id: string | null;
  ios_device_id: string | null;
  object_key: string;
  width: number;
  height: number;
  filter_suspended: DbBool;
  flagged: Ts | null;
  created_at: Ts;
  deleted_at: Ts | null;
  /** when the signed upload URL stops working (null: the row never waited for an upload) */
  upload_expires_at: Ts | null;
  /** set by the one PUT the upload URL accepts, before the image is written */
  upload_started_at: Ts | null;
  /** the image is stored: only these rows are activity items (migration 0017) */
  uploaded_at: Ts | null;
}
export interface KeystrokeLinesTable {
  id: string;
  computer_user_id: string;
  app_name: string;
  line: string;
  filter_suspended: DbBool;
  flagged: Ts | null;
  created_at: Ts;
  deleted_at: Ts | null;
  /** Issue 24: the alert the line raised, if any: its category, the words found, and when. */
  alert_category: ColumnType<string | null, string | null | undefined, string | null>;
  alert_words: ColumnType<unknown, string | null | undefined, string | null>;
  alerted_at: ColumnType<Ts | null, Ts | null | undefined, Ts | null>;
}
/** Issue 24: false alerts the parent reported (unflagged), counted per child and word. */
export interface ActivityAlertFalseReportsTable {
  child_id: string;
  category: string;
  word: string;
  count: number;
  last_reported_at: Ts;
}
export interface UnlockRequestsTable {
  id: string;
  computer_user_id: string;
  status: RequestStatus;
  app_bundle_id: string;
  url: string | null;
  hostname: string | null;
  ip_address: string | null;
  request_comment: string | null;
  response_comment: string | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface MacSuspendFilterRequestsTable {
  id: string;
  computer_user_id: string;
  status: RequestStatus;
  scope: DbJson;
  /** granted once accepted (issue 32: what was asked is `requested_duration`) */
  duration: ColumnType<number, number | undefined, number>;
  /** what the child asked for (migration 0023; null only on rows written before it) */
  requested_duration: ColumnType<number | null, number | null | undefined, number | null>;
  request_comment: string | null;
  response_comment: string | null;
  extra_monitoring: string | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface IosSuspendFilterRequestsTable {
  id: string;
  device_id: string;
  status: RequestStatus;
  duration: number;
  requested_duration: ColumnType<number | null, number | null | undefined, number | null>;
  request_comment: string | null;
  response_comment: string | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface IosBlockGroupsTable {
  id: string;
  name: string;
  description: string;
  created_at: Ts;
  updated_at: Ts;
}
export interface IosDeviceBlockGroupsTable {
  id: string;
  device_id: string;
  block_group_id: string;
  created_at: Ts;
}
export interface IosBlockRulesTable {
  id: string;
  device_id: string | null;
  group_id: string | null;
  vendor_id: string | null;
  rule: DbJson;
  comment: string | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface IosWebPolicyDomainsTable {
  id: string;
  device_id: string;
  domain: string;
  created_at: Ts;
  updated_at: Ts;
}

// §1.5 system, catalogue, short-lived state
export interface SecurityEventsTable {
  id: string;
  parent_id: string;
  computer_user_id: string | null;
  event: string;
  detail: string | null;
  ip_address: string | null;
  created_at: Ts;
}
export interface DeletedEntitiesTable {
  id: string;
  type: string;
  reason: string;
  data: DbJson;
  created_at: Ts;
}
export interface AppEventsTable {
  id: string;
  event_id: string;
  kind: string;
  context: string;
  computer_user_id: string | null;
  parent_id: string | null;
  detail: string | null;
  created_at: Ts;
}
export interface KeychainRequestsTable {
  id: string;
  parent_id: string;
  search_query: string;
  description: string;
  created_at: Ts;
}
export interface StripeEventsTable {
  id: string;
  stripe_event_id: string;
  type: string;
  payload: DbJson;
  created_at: Ts;
}
export interface ConferenceEmailsTable {
  id: string;
  email: string;
  source: ConferenceSource;
  created_at: Ts;
}
export interface AppCategoriesTable {
  id: string;
  name: string;
  slug: string;
  created_at: Ts;
}
export interface IdentifiedAppsTable {
  id: string;
  category_id: string | null;
  name: string;
  slug: string;
  launchable: DbBool;
  description: string | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface AppBundleIdsTable {
  id: string;
  identified_app_id: string;
  bundle_id: string;
  created_at: Ts;
}
export interface UnidentifiedAppsTable {
  id: string;
  bundle_id: string;
  bundle_name: string | null;
  localized_name: string | null;
  launchable: DbBool | null;
  count: number;
  created_at: Ts;
  updated_at: Ts;
}
export interface BrowsersTable {
  id: string;
  /** bundle id (or pattern) that identifies a browser */
  match: string;
  /** the browser's name (added by migration 0002) */
  name: ColumnType<string, string | undefined, string>;
  created_at: Ts;
}
export interface ReleasesTable {
  id: string;
  semver: string;
  channel: ReleaseChannel;
  pace: number;
  release_date: Ts;
  signature: string | null;
  length: number | null;
  created_at: Ts;
}
export interface OneTimeTokensTable {
  id: string;
  purpose: TokenPurpose;
  token_hash: string;
  parent_id: string;
  /** A co-parent's magic link or password reset; null = the account owner's. */
  person_id: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: Ts;
}
export interface ConnectionCodesTable {
  id: string;
  code_hash: string;
  child_id: string;
  expires_at: Ts;
  created_at: Ts;
  /** Wrong guesses made anywhere while the code waited (issue 19). */
  wrong_guesses: ColumnType<number, number | undefined, number>;
  /** Issue 31: the public address of the parent session that created the code. */
  creator_ip: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 31: when the code was used; kept a while so a retry is not a wrong guess. */
  used_at: ColumnType<Ts | null, Ts | null | undefined, Ts | null>;
}
export interface PendingNotificationMethodsTable {
  id: string;
  parent_id: string;
  person_id: ColumnType<string | null, string | null | undefined, string | null>;
  config: DbJson;
  code_hash: string;
  expires_at: Ts;
  created_at: Ts;
}
export interface RateLimitCountersTable {
  bucket: string;
  window_start: Ts;
  count: number;
}
export interface DevicePresenceTable {
  computer_user_id: string;
  last_seen_at: Ts;
  filter_state: DbJson | null;
  connection_id: string | null;
  instance_id: string | null;
}
export interface JobRunsTable {
  job: string;
  run_key: string;
  started_at: Ts;
  finished_at: Ts | null;
}

// issue 12: co-parents and the audit log
/** Issue 23: one-tap decisions of a suspension-request push notification (single use). */
export interface PushActionTokensTable {
  id: string;
  parent_id: string;
  person_id: string | null;
  request_id: string;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: Ts;
  /** Issue 31: the phone (notification method) it was sent to; deleted with it. */
  method_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface CoParentsTable {
  /** The person's id (what ParentContext.personId holds for a co-parent). */
  id: string;
  parent_id: string;
  email: string;
  /** null until the invitation is accepted */
  password_hash: string | null;
  status: 'invited' | 'active';
  created_at: Ts;
  updated_at: Ts;
}
export interface ParentInvitationsTable {
  id: string;
  co_parent_id: string;
  token_hash: string;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: Ts;
}
export interface AuditLogTable {
  id: string;
  parent_id: string;
  person_id: string;
  person_email: string;
  operation: string;
  entity_type: string;
  entity_id: string | null;
  child_id: string | null;
  summary: string;
  /** [{ field, before, after }] without secrets */
  changes: DbJson;
  created_at: Ts;
}

// issue 12: two-factor sign-in and the data export (migration 0013). person_id = the person
// (the owner's parents.id or a co-parent's id); parent_id = the family account.
export interface TotpFactorsTable {
  person_id: string;
  parent_id: string;
  /** tokens.encrypt(base32 secret) */
  secret_encrypted: string;
  /** null while enrolling */
  confirmed_at: Ts | null;
  /** the last accepted code's time step: a code is never accepted twice */
  last_time_step: DbBigInt | null;
  created_at: Ts;
  updated_at: Ts;
}
export interface RecoveryCodesTable {
  id: string;
  parent_id: string;
  person_id: string;
  /** tokens.hmac(normalised code) */
  code_hash: string;
  used_at: Ts | null;
  created_at: Ts;
}
export interface SecondFactorChallengesTable {
  id: string;
  token_hash: string;
  parent_id: string;
  person_id: string;
  /** the security event detail of the first step, e.g. "using email/password" */
  first_step: string;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: Ts;
}
export interface PasskeysTable {
  id: string;
  parent_id: string;
  person_id: string;
  /** base64url credential id */
  credential_id: string;
  /** base64url COSE public key */
  public_key: string;
  counter: DbBigInt;
  transports: DbJson;
  name: string;
  created_at: Ts;
  last_used_at: Ts | null;
}
export interface WebauthnChallengesTable {
  id: string;
  challenge: string;
  purpose: 'registration' | 'login';
  parent_id: string | null;
  person_id: string | null;
  second_factor_challenge_id: string | null;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: Ts;
}
export interface DataExportsTable {
  id: string;
  parent_id: string;
  person_id: string;
  status: 'pending' | 'building' | 'ready' | 'failed';
  progress: number;
  storage_key: string | null;
  size_bytes: DbBigInt | null;
  error: string | null;
  created_at: Ts;
  updated_at: Ts;
  expires_at: Ts | null;
}

/**
 * Issue 11: the data version of each family (parent_id) and of shared data ('*'), bumped by
 * triggers on every write of a table that feeds a cached answer (migrations/0014).
 */
export interface FamilyVersionsTable {
  parent_id: string;
  version: ColumnType<number | string, never, number>;
}

export interface Database {
  family_versions: FamilyVersionsTable;
  co_parents: CoParentsTable;
  parent_invitations: ParentInvitationsTable;
  audit_log: AuditLogTable;
  parents: ParentsTable;
  dashboard_sessions: DashboardSessionsTable;
  notification_methods: NotificationMethodsTable;
  notifications: NotificationsTable;
  announcements: AnnouncementsTable;
  keychains: KeychainsTable;
  keys: KeysTable;
  children: ChildrenTable;
  computers: ComputersTable;
  dns_blocked_names: DnsBlockedNamesTable;
  screen_time_minutes: ScreenTimeMinutesTable;
  more_time_requests: MoreTimeRequestsTable;
  dns_allowed_names: DnsAllowedNamesTable;
  dns_query_hours: DnsQueryHoursTable;
  computer_users: ComputerUsersTable;
  mac_app_tokens: MacAppTokensTable;
  child_keychains: ChildKeychainsTable;
  blocked_mac_apps: BlockedMacAppsTable;
  ios_devices: IosDevicesTable;
  ios_app_tokens: IosAppTokensTable;
  screenshots: ScreenshotsTable;
  keystroke_lines: KeystrokeLinesTable;
  activity_alert_false_reports: ActivityAlertFalseReportsTable;
  unlock_requests: UnlockRequestsTable;
  mac_suspend_filter_requests: MacSuspendFilterRequestsTable;
  ios_suspend_filter_requests: IosSuspendFilterRequestsTable;
  ios_block_groups: IosBlockGroupsTable;
  ios_device_block_groups: IosDeviceBlockGroupsTable;
  ios_block_rules: IosBlockRulesTable;
  ios_web_policy_domains: IosWebPolicyDomainsTable;
  security_events: SecurityEventsTable;
  deleted_entities: DeletedEntitiesTable;
  app_events: AppEventsTable;
  keychain_requests: KeychainRequestsTable;
  stripe_events: StripeEventsTable;
  conference_emails: ConferenceEmailsTable;
  app_categories: AppCategoriesTable;
  identified_apps: IdentifiedAppsTable;
  app_bundle_ids: AppBundleIdsTable;
  unidentified_apps: UnidentifiedAppsTable;
  browsers: BrowsersTable;
  releases: ReleasesTable;
  one_time_tokens: OneTimeTokensTable;
  connection_codes: ConnectionCodesTable;
  pending_notification_methods: PendingNotificationMethodsTable;
  rate_limit_counters: RateLimitCountersTable;
  device_presence: DevicePresenceTable;
  job_runs: JobRunsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  second_factor_challenges: SecondFactorChallengesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  data_exports: DataExportsTable;
  push_action_tokens: PushActionTokensTable;
}

// `Generated` is re-exported so later tables can use it without another import line.
export type { Generated };
