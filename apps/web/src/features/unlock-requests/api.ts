import type { DashboardOperation, DashboardOutput } from '@keyward/contract/dashboard';
import type { PqlError } from '@keyward/contract/errors';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isTestMode } from '../../lib/env';
import {
  callDashboardOrThrow,
  dashboardQueryKey,
  useDashboardMutation,
  useDashboardQuery,
  useLoggedOutRedirect,
} from '../../lib/api/hooks';
import { queryRetryDelay, shouldRetryQuery } from '../../lib/api/retry';

const REQUEST_READS: DashboardOperation[] = [
  'GetUnlockRequests',
  'GetUnlockRequestsPage',
  'GetUserUnlockRequests',
  'GetUnlockRequest',
  'DashboardWidgets',
];

type UnlockRequestsPage = DashboardOutput<'GetUnlockRequestsPage'>;

/**
 * The unlock requests of every child, or of one, a page at a time (issue 19): the first page, then
 * one more on each `fetchNextPage` ("Show older"). A refetch reads every page shown again.
 */
export function useUnlockRequestPages(childId?: string) {
  const redirectIfLoggedOut = useLoggedOutRedirect();
  const input = childId === undefined ? {} : { childId };
  const query = useInfiniteQuery<
    UnlockRequestsPage,
    PqlError,
    { pages: UnlockRequestsPage[]; pageParams: (string | undefined)[] },
    readonly unknown[],
    string | undefined
  >({
    queryKey: dashboardQueryKey('GetUnlockRequestsPage', input),
    queryFn: ({ pageParam }) =>
      callDashboardOrThrow(
        'GetUnlockRequestsPage',
        pageParam === undefined ? input : { ...input, before: pageParam },
      ),
    initialPageParam: undefined,
    getNextPageParam: (page) => page.nextBefore,
    retry: (failureCount, error) => shouldRetryQuery(failureCount, error, isTestMode()),
    retryDelay: queryRetryDelay,
  });
  useEffect(() => {
    redirectIfLoggedOut(query.error);
  }, [query.error, redirectIfLoggedOut]);
  return query;
}

export const useUnlockRequest = (id: string) => useDashboardQuery('GetUnlockRequest', id);

export const useChildName = (childId: string, options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetUser', childId, options);

/** The parent's own keychains: the new key of an accepted request goes into one of them. */
export const useOwnKeychains = () => useDashboardQuery('GetAdminKeychains', undefined);

// No toasts: the accept and deny screens show their own error screens.
// An accept may give the child the key's keychain (issue 32): their keychains are read again.
export const useUpdateUnlockRequest = () =>
  useDashboardMutation('UpdateUnlockRequest', {
    invalidates: [...REQUEST_READS, 'GetAdminKeychains', 'GetUsers', 'GetUser'],
  });

export const useSaveRequestKey = () =>
  useDashboardMutation('SaveKey', {
    invalidates: ['GetAdminKeychains', 'GetAdminKeychain', 'GetUsers', 'GetUser'],
  });
