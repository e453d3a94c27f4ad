import type { PqlError } from '@keyward/contract/errors';

export const MAX_QUERY_RETRIES = 3;

/** Wire-contract §2.7: reads retry up to 3 times, except where the answer cannot change. */
export function shouldRetryQuery(failureCount: number, error: PqlError, isTest: boolean): boolean {
  if (isTest) return false;
  if (error.type === 'loggedOut' || error.type === 'notFound' || error.type === 'badRequest') {
    return false;
  }
  return failureCount < MAX_QUERY_RETRIES;
}

/** 1 s, 2 s, 4 s for attempts 0, 1, 2. */
export function queryRetryDelay(attemptIndex: number): number {
  return 1000 * 2 ** attemptIndex;
}
