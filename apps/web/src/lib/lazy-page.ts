import { type ComponentProps, type ComponentType, createElement, lazy, useState } from 'react';

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

// biome-ignore lint/suspicious/noExplicitAny: page components take any props
export type LazyPage<T extends ComponentType<any>> = ComponentType<ComponentProps<T>> & {
  /** Starts downloading the page's chunk now (issue 21: at navigation, with its data); settles once it has arrived or failed. */
  preload: () => Promise<void>;
};

/**
 * React.lazy for a page chunk, retried twice (a flaky network, a deploy mid-visit). A chunk that
 * still fails reaches the route error boundary (app/RouteErrorBoundary.tsx), which offers Reload.
 * `preload()` and the first render share one download.
 *
 * A page whose chunk has already arrived (preloaded with the first screen, or visited before)
 * renders at once instead of suspending: React.lazy always suspends on its first render, and a
 * suspended boundary shows its spinner and then waits (React holds a fallback at least 300 ms)
 * before the page can appear, once per nested page (issue 21). The choice is made once per mount,
 * so a page never remounts when its chunk arrives while it is on screen.
 */
// biome-ignore lint/suspicious/noExplicitAny: page components take any props
export function lazyPage<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyPage<T> {
  let loaded: T | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const loadOnce = () => {
    loading ??= importWithRetry(load).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined; // the next render tries again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => loadOnce());
  function Page(props: ComponentProps<T>) {
    const [Loaded] = useState(() => loaded);
    return Loaded ? createElement(Loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Page, {
    preload: () =>
      loadOnce().then(
        () => undefined,
        () => undefined,
      ),
  });
}
