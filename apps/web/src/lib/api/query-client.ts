import { onlineManager, QueryClient } from '@tanstack/react-query';
import { alsoAskOnlineManager } from '../online';
import { takenPageRender } from '../page-render';
import { adoptEarlyCalls, adoptRenderedAnswers } from './early-fetch';

alsoAskOnlineManager(() => onlineManager.isOnline());

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // per-call retry rules live in lib/api/hooks.ts and retry.ts.
      // networkMode 'always': offline, a call fails at once with the network message instead of
      // pausing on 'Loading...' / 'Saving...'; back online, every page on screen refetches.
      queries: {
        refetchOnWindowFocus: false,
        staleTime: 10_000,
        networkMode: 'always',
        refetchOnReconnect: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** The app's one cache; /logout clears it so the next parent never sees stale data. */
export const queryClient = createQueryClient();

// issue 21: the first page's reads, started with the app (lib/api/early-fetch.ts)
adoptEarlyCalls(queryClient);
// issue 30: or the answers the server rendered the page with
adoptRenderedAnswers(queryClient, takenPageRender());
