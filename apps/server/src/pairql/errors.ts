// The one error shape of wire-contract §2.2. Resolvers throw PqlFailure (via the factories);
// the router adds `requestId` and sends it with `statusCode` as the HTTP status.

export type PqlErrorType = 'notFound' | 'badRequest' | 'serverError' | 'unauthorized' | 'loggedOut';

export interface PqlErrorDetails {
  id: string;
  type: PqlErrorType;
  debugMessage: string;
  userMessage?: string;
  userAction?: string;
  entityName?: string;
  dashboardTag?: string;
  appTag?: string;
  showContactSupport?: boolean;
  statusCode?: number;
  /** Extra HTTP headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  /** issue 31: a spent budget whose refused attempts count too (the rate limiter's `consume`): the
   * same caller's next call is refused as well until Retry-After, so it may be refused unread */
  spentUntilRetryAfter?: boolean;
}

const STATUS: Record<PqlErrorType, number> = {
  notFound: 404,
  badRequest: 400,
  serverError: 500,
  unauthorized: 401,
  loggedOut: 401,
};

export class PqlFailure extends Error {
  readonly details: PqlErrorDetails;

  constructor(details: PqlErrorDetails) {
    super(`${details.type} ${details.id}: ${details.debugMessage}`);
    this.name = 'PqlFailure';
    this.details = details;
  }

  get statusCode(): number {
    return this.details.statusCode ?? STATUS[this.details.type];
  }

  /** The wire body; optional keys are omitted, never null. */
  body(requestId: string): Record<string, unknown> {
    const d = this.details;
    const body: Record<string, unknown> = {
      id: d.id,
      type: d.type,
      requestId,
      debugMessage: d.debugMessage,
    };
    if (d.userMessage !== undefined) body.userMessage = d.userMessage;
    if (d.userAction !== undefined) body.userAction = d.userAction;
    if (d.entityName !== undefined) body.entityName = d.entityName;
    if (d.dashboardTag !== undefined) body.dashboardTag = d.dashboardTag;
    if (d.appTag !== undefined) body.appTag = d.appTag;
    body.showContactSupport = d.showContactSupport ?? d.type === 'serverError';
    body.statusCode = this.statusCode;
    body.version = 1;
    return body;
  }
}

type Extra = Partial<Omit<PqlErrorDetails, 'id' | 'type' | 'debugMessage'>>;

/** A missing row, or one that belongs to someone else (indistinguishable on purpose). */
export function notFound(entityName: string, debugMessage?: string): PqlFailure {
  return new PqlFailure({
    id: '6ac1205a',
    type: 'notFound',
    entityName,
    debugMessage: debugMessage ?? `${entityName} not found`,
  });
}

export function unknownOperation(name: string): PqlFailure {
  return new PqlFailure({
    id: '0f5a25c9',
    type: 'notFound',
    debugMessage: `Unknown operation ${name}`,
  });
}

export function notAvailableYet(id: string, what: string): PqlFailure {
  return new PqlFailure({ id, type: 'notFound', debugMessage: `${what} is not available yet` });
}

export function badRequest(
  id: string,
  debugMessage: string,
  userMessage?: string,
  extra: Extra = {},
): PqlFailure {
  return new PqlFailure({ id, type: 'badRequest', debugMessage, userMessage, ...extra });
}

export function unauthorized(
  id: string,
  debugMessage: string,
  userMessage?: string,
  extra: Extra = {},
): PqlFailure {
  return new PqlFailure({ id, type: 'unauthorized', debugMessage, userMessage, ...extra });
}

export function loggedOut(): PqlFailure {
  return new PqlFailure({
    id: '8df93d61',
    type: 'loggedOut',
    debugMessage: 'Admin token not found',
  });
}

export function userTokenNotFound(): PqlFailure {
  return new PqlFailure({
    id: '6e88d0de',
    type: 'unauthorized',
    debugMessage: 'User token not found',
    appTag: 'userTokenNotFound',
  });
}

export function iosDeviceTokenNotFound(): PqlFailure {
  return new PqlFailure({
    id: '3aecf9fd',
    type: 'unauthorized',
    debugMessage: 'Device token not found',
    appTag: 'iosDeviceTokenNotFound',
  });
}

/** issue 22: Keyward for Chrome's token is unknown, retired, or was never a browser's. */
export function browserTokenNotFound(): PqlFailure {
  return new PqlFailure({
    id: '7d2b9e41',
    type: 'unauthorized',
    debugMessage: 'Browser token not found',
    userMessage:
      'This browser is no longer connected to Keyward. Ask your parent for a new connection code.',
    appTag: 'browserTokenNotFound',
  });
}

export function tooManyRequests(
  retryAfterSeconds: number,
  userMessage?: string,
  spentUntilRetryAfter = false,
): PqlFailure {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new PqlFailure({
    spentUntilRetryAfter,
    id: 'c4a1e8d2',
    type: 'badRequest',
    statusCode: 429,
    debugMessage: `Rate limit exceeded; retry after ${seconds} s`,
    userMessage: userMessage ?? 'Too many attempts. Please wait a few minutes and try again.',
    headers: { 'retry-after': String(seconds) },
  });
}

export function serverError(id: string, debugMessage: string, userMessage?: string): PqlFailure {
  return new PqlFailure({
    id,
    type: 'serverError',
    debugMessage,
    userMessage,
    showContactSupport: true,
  });
}
