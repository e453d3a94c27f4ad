import type { PqlError } from '@keyward/contract/errors';
import { CLIENT_ERROR_IDS } from '@keyward/contract/constants';
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useReducer } from 'react';
import { isBrowserOffline } from './online';

// Whether the dashboard can reach the Keyward server (issue 20). A read that fails for the network
// while the browser says it is online means our server is down or unreachable: the page says so,
// keeps retrying, and shows the statuses it last read as stale. A browser that is really offline
// keeps the spec's network message.

export type Reachability = 'reachable' | 'serverUnreachable' | 'browserOffline';

export type ReachabilityState = { isBrowserOnline: boolean; isServerReachable: boolean };

export type ReachabilityEvent =
  | { type: 'callFailed'; error: PqlError }
  | { type: 'callSucceeded' }
  | { type: 'browserWentOffline' }
  | { type: 'browserCameOnline' };

/** How often the pages on screen are read again while the server cannot be reached. */
export const RETRY_UNREACHABLE_MS = 5000;

export const SERVER_UNREACHABLE_MESSAGE = "Can't reach the Keyward server — retrying";

/** The network failed, or a proxy answered for a server that is down (502, 503, 504). */
export function isUnreachableError(error: PqlError): boolean {
  if (error.id === CLIENT_ERROR_IDS.network) return true;
  return /^Unexpected error: status=50[234],/.test(error.debugMessage);
}

export function initialReachability(isOffline = isBrowserOffline()): ReachabilityState {
  return { isBrowserOnline: !isOffline, isServerReachable: true };
}

export function reachabilityReducer(
  state: ReachabilityState,
  event: ReachabilityEvent,
): ReachabilityState {
  switch (event.type) {
    case 'callFailed':
      // offline, a failed call says nothing about our server
      if (!state.isBrowserOnline || !isUnreachableError(event.error)) return state;
      if (!state.isServerReachable) return state;
      return { ...state, isServerReachable: false };
    case 'callSucceeded':
      return state.isServerReachable ? state : { ...state, isServerReachable: true };
    case 'browserWentOffline':
      return { ...state, isBrowserOnline: false };
    case 'browserCameOnline':
      return { ...state, isBrowserOnline: true };
  }
}

export function reachabilityOf(state: ReachabilityState): Reachability {
  if (!state.isBrowserOnline) return 'browserOffline';
  return state.isServerReachable ? 'reachable' : 'serverUnreachable';
}

/** Follows every read and save of the query client, and the browser's online state. */
export function useReachability(queryClient: QueryClient): Reachability {
  const [state, dispatch] = useReducer(reachabilityReducer, undefined, () => initialReachability());

  useEffect(() => {
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated') return;
      if (event.action.type === 'success') dispatch({ type: 'callSucceeded' });
      if (event.action.type === 'error') {
        dispatch({ type: 'callFailed', error: event.action.error as PqlError });
      }
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated') return;
      if (event.action.type === 'success') dispatch({ type: 'callSucceeded' });
      if (event.action.type === 'error') {
        dispatch({ type: 'callFailed', error: event.action.error as PqlError });
      }
    });
    const browser = onlineManager.subscribe((isOnline) =>
      dispatch({ type: isOnline ? 'browserCameOnline' : 'browserWentOffline' }),
    );
    return () => {
      queries();
      mutations();
      browser();
    };
  }, [queryClient]);

  const reachability = reachabilityOf(state);
  // Retry: read the pages on screen again until the server answers.
  useEffect(() => {
    if (reachability !== 'serverUnreachable') return;
    const timer = setInterval(() => {
      void queryClient.refetchQueries({ type: 'active' });
    }, RETRY_UNREACHABLE_MS);
    return () => clearInterval(timer);
  }, [reachability, queryClient]);

  return reachability;
}

const ReachabilityContext = createContext<Reachability>('reachable');

export function ReachabilityProvider({
  value,
  children,
}: {
  value: Reachability;
  children: ReactNode;
}) {
  return <ReachabilityContext.Provider value={value}>{children}</ReachabilityContext.Provider>;
}

export function useReachabilityState(): Reachability {
  return useContext(ReachabilityContext);
}

/** Live statuses on screen are stale: what they say was true when last read. */
export function useAreStatusesStale(): boolean {
  return useContext(ReachabilityContext) !== 'reachable';
}
