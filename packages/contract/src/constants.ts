// Plain values of the contract, free of zod, so the dashboard can import them without bundling the
// schemas (the /login page has a 100 KB budget). The schemas in shared.ts, errors.ts and
// dashboard.ts are built from these; test/constants.test.ts checks the operation lists.

export const PQL_ERROR_TYPES = [
  'notFound',
  'badRequest',
  'serverError',
  'unauthorized',
  'loggedOut',
  'clientError',
  'other',
] as const;

/** Dashboard operations with auth mode `none`; every other one needs the parent token. */
export const PUBLIC_DASHBOARD_OPERATIONS = [
  // two-factor sign-in (issue 12): the second step and password-less passkey sign-in
  'FinishPasskeyLogin',
  'LoginSecondFactor',
  'StartPasskeyLogin',
  // co-parents (issue 12): the invitee sets a password from the emailed link
  'AcceptParentInvite',
  'Login',
  'LoginMagicLink',
  'RequestMagicLink',
  'ResetPassword',
  'SaveConferenceEmail',
  'SendPasswordResetEmail',
  'Signup',
  'VerifySignupEmail',
] as const;

// Input limits (server-behaviour §10.3) that are visible in the shape

export const LIMITS = {
  name: 100,
  comment: 2000,
  searchQuery: 255,
  gclid: 128,
  url: 2000,
  event: 255,
  extraMonitoring: 255,
  keystrokeLine: 10_000,
  ipAddress: 64,
  macVersion: 12,
  arrayItems: 1000,
  minScreenshotsFrequency: 10,
  /** a list's paging cursor (GetUnlockRequestsPage `before`) */
  cursor: 200,
} as const;

export const DASHBOARD_TAGS = {
  magicLinkTokenNotFound: 'magicLinkTokenNotFound',
  emailAlreadyVerified: 'emailAlreadyVerified',
  slackVerificationFailed: 'slackVerificationFailed',
} as const;
export type DashboardTag = keyof typeof DASHBOARD_TAGS;

/** Ids of errors fabricated by the dashboard itself. */
export const CLIENT_ERROR_IDS = {
  /** `parent` operation called with no stored token (loggedOut) */
  noToken: '10569a9f',
  /** fetch threw (clientError) */
  network: '34fbe3e3',
  /** invalid JSON, or an error body without `id` (clientError) */
  unexpectedBody: 'b3162834',
  /** non-API exception in dashboard code wrapped as a PqlError (clientError) */
  wrapped: '59b169c4',
} as const;

/** Server-fixed error ids (server-behaviour §11); other raising sites pick fresh ids. */
export const ERROR_IDS = {
  /** loggedOut 401 — admin token missing, unknown, expired or revoked */
  loggedOut: '8df93d61',
  /** badRequest 400 — a create sent again with its id and other content (issue 31): the
   * dashboard reloads what is stored and shows it */
  createdWithOtherContent: '5d2b7e90',
  /** notFound 404 — unknown operation, any namespace */
  unknownOperation: '0f5a25c9',
  /** notFound 404 — row not found or not owned; `entityName` set */
  notFound: '6ac1205a',
  /** unauthorized 401 — Login: incorrect email or password */
  incorrectLogin: '1e087878',
  /** unauthorized 401 — Login: email not verified, verification re-sent */
  emailNotVerified: '4b5bbea0',
  /** unauthorized 401 — LoginMagicLink: token not found / expired / used (tag magicLinkTokenNotFound) */
  magicLinkTokenNotFound: '9a314d21',
  /** badRequest 400 — VerifySignupEmail: link expired, new email sent */
  verifyLinkExpiredResent: '84a6c609',
  /** badRequest 400 — VerifySignupEmail: link expired, already verified (tag emailAlreadyVerified) */
  verifyLinkExpiredAlreadyVerified: 'beb1b493',
  /** badRequest 400 — VerifySignupEmail: token already used, new email sent */
  verifyTokenUsedResent: '6257bfb9',
  /** badRequest 400 — VerifySignupEmail: token already used, already verified (tag emailAlreadyVerified) */
  verifyTokenUsedAlreadyVerified: 'f2b70e49',
  /** unauthorized 401 — CreatePendingNotificationMethod: Slack test message failed (tag slackVerificationFailed) */
  slackVerificationFailed: 'df619205',
  /** unauthorized 401 — Mac ops: user token not found (appTag userTokenNotFound) */
  userTokenNotFound: '6e88d0de',
  /** unauthorized 401 — ConnectUser: connection code not found (appTag connectionCodeNotFound) */
  connectionCodeNotFound: '6e7fc234',
  /** unauthorized 401 — ConnectUser: macOS user or computer belongs to another parent */
  computerOfAnotherParent: '41a43089',
  /** unauthorized 401 — iOS ops: device token not found (appTag iosDeviceTokenNotFound) */
  iosDeviceTokenNotFound: '3aecf9fd',
  /** unauthorized 401 — ConnectDevice: connection code not found */
  iosConnectionCodeNotFound: '79483727',
  /** serverError 500 — billing: Stripe API error */
  stripeError: '7d3e91b4',
} as const;

export const APP_TAGS = {
  userTokenNotFound: 'userTokenNotFound',
  connectionCodeNotFound: 'connectionCodeNotFound',
  iosDeviceTokenNotFound: 'iosDeviceTokenNotFound',
} as const;
