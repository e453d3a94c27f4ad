import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // per-call retry rules live in lib/api/hooks.ts
      queries: { refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}

/** The app's one cache; /logout clears it so the next parent never sees stale data. */
export const queryClient = createQueryClient();
