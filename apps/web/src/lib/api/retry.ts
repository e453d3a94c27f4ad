import type { PqlError } from '@keyward/contract/errors';
import { CLIENT_ERROR_IDS } from '@keyward/contract/constants';
import { isBrowserOffline } from '../online';

export const MAX_QUERY_RETRIES = 3;

/**
 * Wire-contract §2.7: reads retry up to 3 times, except where the answer cannot change. A network
 * failure while the browser is offline is shown at once: the page refetches when it is back.
 */
export function shouldRetryQuery(
  failureCount: number,
  error: PqlError,
  isTest: boolean,
  // tests may pass their own answer
  isOffline: boolean = isBrowserOffline(),
): boolean {
  if (isTest) return false;
  if (error.type === 'loggedOut' || error.type === 'notFound' || error.type === 'badRequest') {
    return false;
  }
  if (isOffline && error.id === CLIENT_ERROR_IDS.network) return false;
  return failureCount < MAX_QUERY_RETRIES;
}

/** 1 s, 2 s, 4 s for attempts 0, 1, 2. */
export function queryRetryDelay(attemptIndex: number): number {
  return 1000 * 2 ** attemptIndex;
}
