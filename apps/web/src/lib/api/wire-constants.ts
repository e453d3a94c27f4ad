import type { PqlErrorType } from '@keyward/contract/errors';

// Runtime values from the contract, mirrored here so the zod schemas stay out of the browser
// bundle (the /login page has a 100 KB budget). test/wire-constants.test.ts keeps them equal.

export const CLIENT_ERROR_IDS = {
  noToken: '10569a9f',
  network: '34fbe3e3',
  unexpectedBody: 'b3162834',
  wrapped: '59b169c4',
} as const;

export const PQL_ERROR_TYPES = [
  'notFound',
  'badRequest',
  'serverError',
  'unauthorized',
  'loggedOut',
  'clientError',
  'other',
] as const satisfies readonly PqlErrorType[];

/** Operations with auth mode `none`; every other dashboard operation needs the parent token. */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  'Login',
  'LoginMagicLink',
  'RequestMagicLink',
  'ResetPassword',
  'SaveConferenceEmail',
  'SendPasswordResetEmail',
  'Signup',
  'VerifySignupEmail',
]);

export const DASHBOARD_TAGS = {
  magicLinkTokenNotFound: 'magicLinkTokenNotFound',
  emailAlreadyVerified: 'emailAlreadyVerified',
  slackVerificationFailed: 'slackVerificationFailed',
} as const;
