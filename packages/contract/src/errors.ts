import { z } from 'zod';
import { PQL_ERROR_TYPES } from './constants.ts';

// Error bodies (wire-contract §2.2–§2.6) and the stable error ids (server-behaviour §11).

export const PqlErrorType = z.enum(PQL_ERROR_TYPES);
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

/** HTTP status per error type (rate limiting answers badRequest with 429 instead). */
export const HTTP_STATUS_OF: Record<ServerPqlErrorType, number> = {
  notFound: 404,
  badRequest: 400,
  serverError: 500,
  unauthorized: 401,
  loggedOut: 401,
  other: 500,
};
