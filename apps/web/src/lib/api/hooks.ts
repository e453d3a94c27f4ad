import type {
  DashboardInput,
  DashboardOperation,
  DashboardOutput,
} from '@keyward/contract/dashboard';
import type { PqlError } from '@keyward/contract/errors';
import { CLIENT_ERROR_IDS, ERROR_IDS } from '@keyward/contract/constants';
import {
  type QueryKey,
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { isTestMode } from '../env';
import { isBrowserOffline } from '../online';
import { isUnreachableError } from '../server-reachability';
import { errorMessage, logoutPath } from '../errors';
import { ERROR_TOAST_DURATION_MS, mutationToastText, type ToastSubject } from '../toast-wording';
import { callDashboard } from './client';
import { queryRetryDelay, shouldRetryQuery } from './retry';

export function dashboardQueryKey(op: DashboardOperation, input?: unknown): QueryKey {
  return input === undefined ? ['dashboard', op] : ['dashboard', op, input];
}

/** Calls the operation and throws its PqlError, the shape react-query expects. */
export async function callDashboardOrThrow<Op extends DashboardOperation>(
  op: Op,
  input: DashboardInput<Op>,
): Promise<DashboardOutput<Op>> {
  const result = await callDashboard(op, input);
  if (result.type === 'error') throw result.error;
  return result.value;
}

/** Sends the parent to /logout (remembering where they were) when the session is gone. */
export function useLoggedOutRedirect(): (error: PqlError | null | undefined) => boolean {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (error) => {
      if (error?.type !== 'loggedOut') return false;
      navigate(logoutPath(location.pathname, location.search), { replace: true });
      return true;
    },
    [navigate, location.pathname, location.search],
  );
}

type QueryOptions<Data = unknown> = {
  enabled?: boolean;
  staleTime?: number;
  /** A fixed interval, or one computed from the latest answer (e.g. faster while a Mac is online). */
  refetchInterval?: number | false | ((data: Data | undefined) => number | false);
  refetchOnWindowFocus?: boolean;
  /** Keep polling while the tab is hidden (the inbox count in the tab title). */
  refetchIntervalInBackground?: boolean;
};

/** A read: retried up to 3 times (1 s, 2 s, 4 s) except loggedOut, notFound, badRequest, tests. */
export function useDashboardQuery<Op extends DashboardOperation>(
  op: Op,
  input: DashboardInput<Op>,
  options: QueryOptions<DashboardOutput<Op>> = {},
): UseQueryResult<DashboardOutput<Op>, PqlError> {
  const redirectIfLoggedOut = useLoggedOutRedirect();
  const query = useQuery<DashboardOutput<Op>, PqlError>({
    queryKey: dashboardQueryKey(op, input),
    queryFn: () => callDashboardOrThrow(op, input),
    retry: (failureCount, error) => shouldRetryQuery(failureCount, error, isTestMode()),
    retryDelay: queryRetryDelay,
    enabled: options.enabled,
    staleTime: options.staleTime,
    refetchInterval:
      typeof options.refetchInterval === 'function'
        ? (query) =>
            (options.refetchInterval as (data: DashboardOutput<Op> | undefined) => number | false)(
              query.state.data,
            )
        : options.refetchInterval,
    refetchOnWindowFocus: options.refetchOnWindowFocus,
    refetchIntervalInBackground: options.refetchIntervalInBackground,
  });
  useEffect(() => {
    redirectIfLoggedOut(query.error);
  }, [query.error, redirectIfLoggedOut]);
  if (keepsLastAnswer(query)) {
    return {
      ...query,
      status: 'success',
      isSuccess: true,
      isError: false,
      isRefetchError: false,
      error: null,
    } as UseQueryResult<DashboardOutput<Op>, PqlError>;
  }
  return query;
}

/**
 * A read that has answered before and now fails because our server cannot be reached keeps its
 * last answer on screen (issue 20): the banner says the server is unreachable and the statuses
 * show as last known, rather than the page turning into an error while the parent reads it.
 * Offline, and for any other error, the page shows the error.
 */
export function keepsLastAnswer(
  query: { isError: boolean; data: unknown; error: PqlError | null },
  isOffline: boolean = isBrowserOffline(),
): boolean {
  if (!query.isError || query.data === undefined || query.error === null) return false;
  return !isOffline && isUnreachableError(query.error);
}

type MutationOptions = {
  toast?: ToastSubject;
  /** Operations whose cached reads are stale after this mutation succeeds. */
  invalidates?: DashboardOperation[];
};

/** A write: never retried; optional loading/success/error toasts. */
export function useDashboardMutation<Op extends DashboardOperation>(
  op: Op,
  options: MutationOptions = {},
): UseMutationResult<
  DashboardOutput<Op>,
  PqlError,
  DashboardInput<Op>,
  string | number | undefined
> {
  const queryClient = useQueryClient();
  const redirectIfLoggedOut = useLoggedOutRedirect();
  const { toast: subject, invalidates = [] } = options;
  return useMutation<
    DashboardOutput<Op>,
    PqlError,
    DashboardInput<Op>,
    string | number | undefined
  >({
    mutationFn: (input) => callDashboardOrThrow(op, input),
    retry: false,
    onMutate: () => (subject ? toast.loading(mutationToastText(subject).loading) : undefined),
    onSuccess: async (_value, _input, toastId) => {
      if (subject) toast.success(mutationToastText(subject).success, { id: toastId });
      await Promise.all(
        invalidates.map((name) => queryClient.invalidateQueries({ queryKey: ['dashboard', name] })),
      );
    },
    onError: async (error, _input, toastId) => {
      // issue 31: what was created before with other details is shown as it is stored
      if (error.id === ERROR_IDS.createdWithOtherContent) {
        await Promise.all(
          invalidates.map((name) =>
            queryClient.invalidateQueries({ queryKey: ['dashboard', name] }),
          ),
        );
      }
      if (subject) {
        toast.error(mutationToastText(subject).error, {
          id: toastId,
          duration: ERROR_TOAST_DURATION_MS,
          // offline: say why, in the spec's network words
          ...((error.id === CLIENT_ERROR_IDS.network ||
            error.id === ERROR_IDS.createdWithOtherContent) && {
            description: errorMessage(error),
          }),
        });
      }
      redirectIfLoggedOut(error);
    },
  });
}
