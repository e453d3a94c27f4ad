import { z } from 'zod';
import { LIMITS } from './constants.ts';
import type { InputOf, OperationDef, OutputOf, ParsedInputOf } from './operation.ts';
import {
  ActivityFeed,
  ActivityRange,
  AdminKeychain,
  AdminNotificationTrigger,
  BlockRule,
  ChildActivityInsightsOutput,
  DashboardWidgetsOutput,
  DataExportOutput,
  DaySummary,
  DecideFilterSuspensionRequestInput,
  DecideMoreTimeRequestInput,
  PauseInternetInput,
  ResumeInternetInput,
  SaveScreenTimeInput,
  ScreenTimeUsage,
  FamilyParent,
  GetAuditLogOutput,
  DeletableEntityType,
  Device,
  FamilyDevice,
  GetAdminOutput,
  GetIOSDeviceOutput,
  IdentifiedApp,
  InboxOutput,
  IsoDate,
  inputArray,
  inputObject,
  Key,
  KeychainSummary,
  NotificationMethodConfig,
  optionalInput,
  ReleaseChannel,
  SecondFactorCode,
  RequestStatus,
  SaveUserInput,
  SecurityEvent,
  SessionOrChallengeOutput,
  SharedKey,
  SignInSecurity,
  SuccessOutput,
  SuspendFilterRequest,
  UnlockRequest,
  User,
  Uuid,
  WebAuthnJson,
  WebPolicy,
} from './shared.ts';

// The dashboard namespace: `POST /pairql/dashboard/{Op}` (wire-contract §5.1).

/** Issue 33: what a Keyward DNS device is, for its setup steps (and the Apple profile). */
export const DnsDeviceKind = z.enum(['android', 'ios', 'macos', 'windows', 'other']);
export type DnsDeviceKind = z.infer<typeof DnsDeviceKind>;

const LoginOutput = z.object({ adminId: Uuid, token: Uuid });

const CheckoutSessionInput = inputObject({ stripeCheckoutSessionId: z.string() });

export const DeleteActivityItemsInput = inputObject({
  keystrokeLineIds: inputArray(Uuid),
  screenshotIds: inputArray(Uuid),
}).refine(
  (input) => input.keystrokeLineIds.length + input.screenshotIds.length <= LIMITS.arrayItems,
  {
    message: `At most ${LIMITS.arrayItems} ids per call`,
  },
);

// Issue 23: the "This device" notification method (Web Push). Its own operations, so no answer the
// reference dashboard decodes gains a case it does not know (docs/push.md).
export const PushSubscriptionSummary = z.object({
  id: Uuid,
  /** what the browser said it is, e.g. "Chrome on Android" */
  label: z.string(),
  /** the push service's URL of that browser, so the browser recognises itself */
  endpoint: z.string(),
  triggers: z.array(AdminNotificationTrigger),
  createdAt: IsoDate,
});
export type PushSubscriptionSummary = z.infer<typeof PushSubscriptionSummary>;

const PUSH_KEY = z
  .string()
  .regex(/^[A-Za-z0-9_-]+=*$/)
  .max(200);

export const SavePushSubscriptionInput = inputObject({
  id: Uuid,
  endpoint: z.string().url().max(2000),
  keys: inputObject({ p256dh: PUSH_KEY, auth: PUSH_KEY }),
  label: optionalInput(z.string().trim().max(LIMITS.name)),
  triggers: inputArray(AdminNotificationTrigger),
});

export const dashboard = {
  AcceptParentInvite: {
    auth: 'none',
    input: inputObject({ token: Uuid, password: z.string() }),
    output: LoginOutput,
  },
  ChildActivityInsights: {
    auth: 'parent',
    input: inputObject({ childId: Uuid, jsTimezoneOffsetMinutes: z.number() }),
    output: ChildActivityInsightsOutput,
  },
  ChildActivitySummaries: {
    auth: 'parent',
    input: inputObject({ childId: Uuid, jsTimezoneOffsetMinutes: z.number() }),
    output: z.object({ childName: z.string(), days: z.array(DaySummary) }),
  },
  CombinedUsersActivityFeed: {
    auth: 'parent',
    input: inputObject({ range: ActivityRange }),
    output: z.array(ActivityFeed),
  },
  ConfirmPendingNotificationMethod: {
    auth: 'parent',
    input: inputObject({ id: Uuid, code: z.number().int() }),
    output: SuccessOutput,
  },
  CreatePendingAppConnection: {
    auth: 'parent',
    input: inputObject({ userId: Uuid }),
    output: z.object({ code: z.number() }),
  },
  /** Issue 33: a device filtered by Keyward DNS (a computer of kind `dns`), docs/dns.md */
  CreateDnsDevice: {
    auth: 'parent',
    input: inputObject({
      childId: Uuid,
      kind: DnsDeviceKind,
      name: z.string().trim().min(1).max(LIMITS.name),
    }),
    output: z.object({
      id: Uuid,
      /** the DoH template: https://<server>/dns-query/<id> */
      dohUrl: z.string(),
      /** Android's Private DNS hostname: <id>.<DNS_DOT_DOMAIN> */
      dotHostname: z.string(),
      /** ios and macos: the configuration profile (.mobileconfig) */
      appleProfileUrl: z.string().optional(),
    }),
  },
  CreatePendingNotificationMethod: {
    auth: 'parent',
    input: NotificationMethodConfig,
    output: z.object({ methodId: Uuid }),
  },
  DashboardWidgets: { auth: 'parent', input: null, output: DashboardWidgetsOutput },
  ConfirmTotpEnrolment: {
    auth: 'parent',
    input: inputObject({ code: SecondFactorCode }),
    output: z.object({ recoveryCodes: z.array(z.string()) }),
  },
  DecideFilterSuspensionRequest: {
    auth: 'parent',
    input: DecideFilterSuspensionRequestInput,
    output: SuccessOutput,
  },
  /** Issue 34: grant (minutes for today) or deny a child's request for more screen time. */
  DecideMoreTimeRequest: {
    auth: 'parent',
    input: DecideMoreTimeRequestInput,
    output: SuccessOutput,
  },
  DeletePushSubscription: {
    auth: 'parent',
    input: inputObject({ id: Uuid }),
    output: SuccessOutput,
  },
  DeleteActivityItems_v2: {
    auth: 'parent',
    input: DeleteActivityItemsInput,
    output: SuccessOutput,
  },
  DeleteEntity_v2: {
    auth: 'parent',
    input: inputObject({ id: Uuid, type: DeletableEntityType }),
    output: SuccessOutput,
  },
  DisableTotp: {
    auth: 'parent',
    input: inputObject({ code: SecondFactorCode }),
    output: SuccessOutput,
  },
  FamilyActivitySummaries: {
    auth: 'parent',
    input: inputObject({ jsTimezoneOffsetMinutes: z.number() }),
    output: z.array(DaySummary),
  },
  FinishPasskeyLogin: {
    auth: 'none',
    input: inputObject({ challengeId: Uuid, response: WebAuthnJson }),
    output: LoginOutput,
  },
  FinishPasskeyRegistration: {
    auth: 'parent',
    input: inputObject({
      response: WebAuthnJson,
      name: optionalInput(z.string().trim().max(LIMITS.name)),
    }),
    // recoveryCodes: only when the person had none (their first second factor), shown once
    output: z.object({ passkeyId: Uuid, recoveryCodes: z.array(z.string()).optional() }),
  },
  FlagActivityItems: { auth: 'parent', input: inputArray(Uuid), output: SuccessOutput },
  GetAdmin: { auth: 'parent', input: null, output: GetAdminOutput },
  // issue 23: the weekly report email; timeZone = the IANA zone its evening is in (absent: UTC)
  GetWeeklyReport: {
    auth: 'parent',
    input: null,
    output: z.object({ isEnabled: z.boolean(), timeZone: z.string().optional() }),
  },
  GetPushSubscriptions: {
    auth: 'parent',
    input: null,
    // vapidPublicKey: the server's VAPID key (base64url), the browser's applicationServerKey
    output: z.object({
      vapidPublicKey: z.string(),
      subscriptions: z.array(PushSubscriptionSummary),
    }),
  },
  GetAdminKeychain: {
    auth: 'parent',
    input: Uuid,
    output: z.object({ summary: KeychainSummary, keys: z.array(Key) }),
  },
  GetAdminKeychains: {
    auth: 'parent',
    input: null,
    output: z.object({
      keychains: z.array(AdminKeychain),
      children: z.array(z.object({ id: Uuid, name: z.string() })),
    }),
  },
  GetDataExport: {
    auth: 'parent',
    input: inputObject({ exportId: Uuid }),
    output: DataExportOutput,
  },
  GetAuditLog: {
    auth: 'parent',
    input: inputObject({
      before: optionalInput(IsoDate),
      personId: optionalInput(Uuid),
      childId: optionalInput(Uuid),
    }),
    output: GetAuditLogOutput,
  },
  GetDevice: { auth: 'parent', input: Uuid, output: Device },
  GetDevices: { auth: 'parent', input: null, output: z.array(Device) },
  GetIdentifiedApps: { auth: 'parent', input: null, output: z.array(IdentifiedApp) },
  /** Beyond the reference (issue 20): every device of the family, of every kind. */
  GetFamilyDevices: { auth: 'parent', input: null, output: z.array(FamilyDevice) },
  /** Beyond the reference (issue 20): every request waiting for the parent, of every device kind. */
  GetInbox: { auth: 'parent', input: null, output: InboxOutput },
  GetIOSDevice: { auth: 'parent', input: Uuid, output: GetIOSDeviceOutput },
  GetSelectableKeychains: {
    auth: 'parent',
    input: null,
    output: z.object({ own: z.array(KeychainSummary), public: z.array(KeychainSummary) }),
  },
  GetSignInSecurity: { auth: 'parent', input: null, output: SignInSecurity },
  GetParents: { auth: 'parent', input: null, output: z.array(FamilyParent) },
  GetSuspendFilterRequest: { auth: 'parent', input: Uuid, output: SuspendFilterRequest },
  GetUnlockRequest: { auth: 'parent', input: Uuid, output: UnlockRequest },
  // issue 19: the first page of the list below (pending requests, then the newest decided ones);
  // the reference dashboard's call, unchanged on the wire
  GetUnlockRequests: { auth: 'parent', input: null, output: z.array(UnlockRequest) },
  // issue 19: the same list a page at a time (all children, or one), for "Show older": no `before`
  // is the first page; `nextBefore` is absent on the last one
  GetUnlockRequestsPage: {
    auth: 'parent',
    input: inputObject({
      childId: optionalInput(Uuid),
      before: optionalInput(z.string().max(LIMITS.cursor)),
    }),
    output: z.object({
      requests: z.array(UnlockRequest),
      nextBefore: z.string().optional(),
    }),
  },
  GetUser: { auth: 'parent', input: Uuid, output: User },
  /** Issue 34: the child's time today and each day of the week, and the top sites by time. */
  GetScreenTime: { auth: 'parent', input: inputObject({ childId: Uuid }), output: ScreenTimeUsage },
  GetUserUnlockRequests: { auth: 'parent', input: Uuid, output: z.array(UnlockRequest) },
  GetUsers: { auth: 'parent', input: null, output: z.array(User) },
  HandleCheckoutCancel: { auth: 'parent', input: CheckoutSessionInput, output: SuccessOutput },
  HandleCheckoutSuccess: { auth: 'parent', input: CheckoutSessionInput, output: SuccessOutput },
  IOSDevices: {
    auth: 'parent',
    input: null,
    output: z.array(
      z.object({
        id: Uuid,
        childName: z.string(),
        deviceType: z.string(),
        osVersion: z.string(),
        /** Beyond the reference: the device's child, so children cards can list its devices. */
        childId: Uuid.optional(),
      }),
    ),
  },
  InviteParent: {
    auth: 'parent',
    input: inputObject({ email: z.string() }),
    output: SuccessOutput,
  },
  LatestAppVersions: {
    auth: 'parent',
    input: null,
    output: z.object({ stable: z.string(), beta: z.string(), canary: z.string() }),
  },
  LogEvent: {
    auth: 'parent',
    // eventId is a short hex code, not a UUID
    input: inputObject({ eventId: z.string().max(LIMITS.event), detail: z.string() }),
    output: SuccessOutput,
  },
  Login: {
    auth: 'none',
    input: inputObject({ email: z.string(), password: z.string() }),
    // a challenge instead of a session when the person has a second factor (issue 12)
    output: SessionOrChallengeOutput,
  },
  LoginMagicLink: {
    auth: 'none',
    input: inputObject({ token: Uuid }),
    output: SessionOrChallengeOutput,
  },
  LoginSecondFactor: {
    auth: 'none',
    input: inputObject({ challenge: Uuid, code: SecondFactorCode }),
    output: LoginOutput,
  },
  Logout: { auth: 'parent', input: null, output: SuccessOutput },
  RemovePasskey: { auth: 'parent', input: inputObject({ id: Uuid }), output: SuccessOutput },
  RequestDataExport: { auth: 'parent', input: null, output: z.object({ exportId: Uuid }) },
  RequestMagicLink: {
    auth: 'none',
    input: inputObject({
      email: z.string(),
      // a dashboard path such as `/children/123`; the server accepts only relative paths
      redirect: optionalInput(z.string().max(LIMITS.url)),
    }),
    output: SuccessOutput,
  },
  RemoveParent: { auth: 'parent', input: inputObject({ id: Uuid }), output: SuccessOutput },
  RequestPublicKeychain: {
    auth: 'parent',
    input: inputObject({
      searchQuery: z.string().max(LIMITS.searchQuery),
      description: z.string().max(LIMITS.comment),
    }),
    output: SuccessOutput,
  },
  ResetPassword: {
    auth: 'none',
    input: inputObject({ token: Uuid, password: z.string() }),
    output: SuccessOutput,
  },
  SaveConferenceEmail: {
    auth: 'none',
    input: inputObject({ email: z.string(), source: z.enum(['workshop', 'booth']) }),
    output: SuccessOutput,
  },
  SaveDevice: {
    auth: 'parent',
    input: inputObject({
      id: Uuid,
      // absent clears the custom name
      name: optionalInput(z.string().max(LIMITS.name)),
      releaseChannel: ReleaseChannel,
    }),
    output: SuccessOutput,
  },
  SaveKey: {
    auth: 'parent',
    input: inputObject({
      isNew: z.boolean(),
      id: Uuid,
      keychainId: Uuid,
      key: SharedKey,
      comment: optionalInput(z.string().max(LIMITS.comment)),
      expiration: optionalInput(IsoDate),
    }),
    output: SuccessOutput,
  },
  SaveKeychain: {
    auth: 'parent',
    input: inputObject({
      isNew: z.boolean(),
      id: Uuid,
      name: z.string().max(LIMITS.name),
      description: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: SuccessOutput,
  },
  SaveNotification: {
    auth: 'parent',
    input: inputObject({
      id: Uuid,
      isNew: z.boolean(),
      methodId: Uuid,
      trigger: AdminNotificationTrigger,
    }),
    output: SuccessOutput,
  },
  SavePushSubscription: {
    auth: 'parent',
    input: SavePushSubscriptionInput,
    // the method's id: the existing one when this browser was already subscribed
    output: z.object({ id: Uuid }),
  },
  SaveUser: { auth: 'parent', input: SaveUserInput, output: SuccessOutput },
  SaveWeeklyReport: {
    auth: 'parent',
    input: inputObject({ isEnabled: z.boolean(), timeZone: optionalInput(z.string().max(64)) }),
    output: SuccessOutput,
  },
  SecurityEventsFeed: { auth: 'parent', input: null, output: z.array(SecurityEvent) },
  SendPasswordResetEmail: {
    auth: 'none',
    input: inputObject({ email: z.string() }),
    output: SuccessOutput,
  },
  Signup: {
    auth: 'none',
    input: inputObject({
      email: z.string(),
      password: z.string(),
      gclid: optionalInput(z.string().max(LIMITS.gclid)),
      // accepted for compatibility and ignored
      abTestVariant: optionalInput(z.string()),
    }),
    // `admin` absent ⇒ "verification email sent"
    output: z.object({ admin: LoginOutput.optional() }),
  },
  StartPasskeyLogin: {
    auth: 'none',
    // with a challenge from Login: a second factor; without: a password-less sign-in
    input: inputObject({ secondFactorChallenge: optionalInput(Uuid) }),
    output: z.object({ challengeId: Uuid, options: WebAuthnJson }),
  },
  StartPasskeyRegistration: {
    auth: 'parent',
    input: null,
    output: z.object({ options: WebAuthnJson }),
  },
  StartTotpEnrolment: {
    auth: 'parent',
    input: null,
    output: z.object({ secret: z.string(), otpauthUrl: z.string() }),
  },
  StripeUrl: { auth: 'parent', input: null, output: z.object({ url: z.string() }) },
  /** Issue 34: the child's daily allowance per day of the week and its keychains that never count. */
  SaveScreenTime: { auth: 'parent', input: SaveScreenTimeInput, output: SuccessOutput },
  /** Issue 34: every Keyward filter of the child blocks everything, for `minutes` or until resumed. */
  PauseInternet: { auth: 'parent', input: PauseInternetInput, output: SuccessOutput },
  ResumeInternet: { auth: 'parent', input: ResumeInternetInput, output: SuccessOutput },
  ToggleChildKeychain: {
    auth: 'parent',
    input: inputObject({ keychainId: Uuid, childId: Uuid }),
    output: SuccessOutput,
  },
  UpdateIOSDevice: {
    auth: 'parent',
    input: inputObject({
      deviceId: Uuid,
      enabledBlockGroups: inputArray(Uuid),
      webPolicy: WebPolicy,
      webPolicyDomains: inputArray(z.string()),
    }),
    output: SuccessOutput,
  },
  UpdateUnlockRequest: {
    auth: 'parent',
    input: inputObject({
      id: Uuid,
      responseComment: optionalInput(z.string().max(LIMITS.comment)),
      status: RequestStatus,
      /** Beyond the reference (issue 32): on accept, the own keychain the new key went into; the
       * child is given it (always) in the same step when they do not have it yet. */
      keychainId: optionalInput(Uuid),
    }),
    output: SuccessOutput,
  },
  UpsertBlockRule: {
    auth: 'parent',
    // `id` absent ⇒ create; the output is the rule id as a bare JSON string
    input: inputObject({ id: optionalInput(Uuid), deviceId: Uuid, rule: BlockRule }),
    output: Uuid,
  },
  UserActivityFeed: {
    auth: 'parent',
    input: inputObject({ userId: Uuid, range: ActivityRange }),
    output: ActivityFeed,
  },
  VerifySignupEmail: { auth: 'none', input: inputObject({ token: Uuid }), output: LoginOutput },
} as const satisfies Record<string, OperationDef>;

export type DashboardOperation = keyof typeof dashboard;
export type DashboardInput<Op extends DashboardOperation> = InputOf<(typeof dashboard)[Op]>;
export type DashboardParsedInput<Op extends DashboardOperation> = ParsedInputOf<
  (typeof dashboard)[Op]
>;
export type DashboardOutput<Op extends DashboardOperation> = OutputOf<(typeof dashboard)[Op]>;

export const dashboardOperationNames = Object.keys(dashboard) as DashboardOperation[];

export function isDashboardOperation(name: string): name is DashboardOperation {
  return Object.hasOwn(dashboard, name);
}
