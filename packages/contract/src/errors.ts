import { z } from 'zod';

// Error bodies (wire-contract §2.2–§2.6) and the stable error ids (server-behaviour §11).

export const PqlErrorType = z.enum([
  'notFound',
  'badRequest',
  'serverError',
  'unauthorized',
  'loggedOut',
  'clientError',
  'other',
]);
export type PqlErrorType = z.infer<typeof PqlErrorType>;

/** The `type` values a server may send (`clientError` never appears on the wire). */
export const ServerPqlErrorType = PqlErrorType.exclude(['clientError']);
export type ServerPqlErrorType = z.infer<typeof ServerPqlErrorType>;

export const ERROR_ID_PATTERN = /^[0-9a-f]{8}$/;

/**
 * The error body a server sends (status ≥ 300). Optional keys are omitted, never `null`.
 * `isPqlError`, `tag` and `serverRequestId` are client-side names and are not part of it.
 */
export const ServerPqlError = z.object({
  id: z.string().regex(ERROR_ID_PATTERN),
  type: ServerPqlErrorType,
  requestId: z.string(),
  debugMessage: z.string(),
  userMessage: z.string().optional(),
  userAction: z.string().optional(),
  entityName: z.string().optional(),
  dashboardTag: z.string().optional(),
  appTag: z.string().optional(),
  showContactSupport: z.boolean(),
  statusCode: z.number().int(),
  version: z.literal(1),
});
export type ServerPqlError = z.infer<typeof ServerPqlError>;

/** The dashboard's error object; never on the wire. */
export interface PqlError {
  isPqlError: true;
  id: string;
  type: PqlErrorType;
  debugMessage: string;
  userMessage?: string;
  userAction?: string;
  entityName?: string;
  /** = `dashboardTag` */
  tag?: string;
  showContactSupport?: boolean;
  /** = `requestId` */
  serverRequestId?: string;
  clientRequestId?: string;
}

/** Client-only wrapper; never a wire format. */
export type Result<T> = { type: 'success'; value: T } | { type: 'error'; error: PqlError };

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

/** HTTP status per error type (rate limiting answers badRequest with 429 instead). */
export const HTTP_STATUS_OF: Record<ServerPqlErrorType, number> = {
  notFound: 404,
  badRequest: 400,
  serverError: 500,
  unauthorized: 401,
  loggedOut: 401,
  other: 500,
};
