import type { PqlError } from '@keyward/contract/errors';
import { CLIENT_ERROR_IDS, PQL_ERROR_TYPES } from '@keyward/contract/constants';
import { isBrowserOffline } from './online';

export const GENERIC_ERROR_MESSAGE =
  "Sorry, there's been some sort of technical issue (probably on our end). Please try again, or contact support if the problem persists.";

export const NETWORK_ERROR_MESSAGE =
  "Something seems funny with the network. Are you sure you're connected to the internet?";

/** A network failure while the browser is online: our server is down or unreachable (issue 20). */
export const SERVER_UNREACHABLE_ERROR_MESSAGE =
  "Can't reach the Keyward server. Nothing was changed; please try again in a moment.";

export function isPqlError(value: unknown): value is PqlError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.isPqlError === true &&
    typeof candidate.id === 'string' &&
    typeof candidate.type === 'string' &&
    (PQL_ERROR_TYPES as readonly string[]).includes(candidate.type)
  );
}

/** Non-API exceptions thrown in dashboard code become a clientError (spec §8). */
export function toPqlError(error: unknown): PqlError {
  if (isPqlError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return {
    isPqlError: true,
    id: CLIENT_ERROR_IDS.wrapped,
    type: 'clientError',
    debugMessage: `Unexpected error: ${message}`,
    showContactSupport: true,
  };
}

// The server names entities after its tables ('ComputerUser'); the parent reads product words.
const PRODUCT_ENTITY_NAMES: Readonly<Record<string, string>> = {
  ComputerUser: 'Computer connection',
  NotificationMethod: 'Notification method',
  Parent: 'Account',
  UnlockRequest: 'Unlock request',
  SuspendFilterRequest: 'Suspension request',
};

/** The entity of a notFound error in product words: 'ComputerUser' → 'Computer connection'. */
export function productEntityName(entityName: string): string {
  return PRODUCT_ENTITY_NAMES[entityName] ?? entityName;
}

/** Display rules of spec §8. */
export function errorMessage(error: PqlError): string {
  // the spec's network message is for a browser that is really offline, not for our server down
  if (error.id === CLIENT_ERROR_IDS.network && !isBrowserOffline()) {
    return SERVER_UNREACHABLE_ERROR_MESSAGE;
  }
  if (error.userMessage) return error.userMessage;
  if (error.type === 'notFound') {
    return error.entityName ? `${productEntityName(error.entityName)} not found.` : 'Not found.';
  }
  return GENERIC_ERROR_MESSAGE;
}

export function errorTitle(error: PqlError): 'Not found' | 'Error' {
  return error.type === 'notFound' ? 'Not found' : 'Error';
}

/** Where a loggedOut answer sends the parent: /logout, remembering the page unless it is `/`. */
export function logoutPath(pathname: string, search = ''): string {
  if (pathname === '/' || pathname === '') return '/logout';
  return `/logout?redirect=${encodeURIComponent(pathname + search)}`;
}
