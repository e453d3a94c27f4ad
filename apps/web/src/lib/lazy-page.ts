import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export const CHUNK_RETRY_DELAYS_MS = [500, 1500] as const;

/** The browsers' words for a script chunk that could not be downloaded. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|importing a module script failed|ChunkLoadError|Loading (CSS )?chunk|Unable to preload CSS/i.test(
    message,
  );
}

/** Calls `load` again after each delay while it fails to download a chunk. */
export async function importWithRetry<T>(
  load: () => Promise<T>,
  delaysMs: readonly number[] = CHUNK_RETRY_DELAYS_MS,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (delay === undefined || !isChunkLoadError(error)) throw error;
      await wait(delay);
    }
  }
}

/**
 * React.lazy for a page chunk, retried twice (a flaky network, a deploy mid-visit). A chunk that
 * still fails reaches the route error boundary (app/RouteErrorBoundary.tsx), which offers Reload.
 */
// biome-ignore lint/suspicious/noExplicitAny: page components take any props
export function lazyPage<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() => importWithRetry(load));
}
