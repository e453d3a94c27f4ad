import type { PageRender } from '@keyward/contract/page-render';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { RenderedRoutes } from './app/App';
import { Providers } from './app/Providers';
import { firstReadsOf, isSignedInPath, loadPagesOf } from './app/routes';
import { createQueryClient } from './lib/api/query-client';
import type { AdminSession } from './lib/session';

// Issue 30: the dashboard's renderer for the server (built by scripts/prerender.ts into
// dist/server/entry-server.mjs, loaded by apps/server/src/http/signed-in-page.ts). The server asks
// which reads a signed-in page renders first, answers them for the parent of the request's session
// cookie, and renders the page with them; the browser hydrates that HTML (main.tsx).

/** The signed-in paths rendered on the server: the home page, the first screen of most visits. */
export const RENDERED_PATHS = ['/'] as const;

/** The input-less dashboard reads the page at `path` renders first (none: not rendered here). */
export function firstReadsFor(path: string): readonly string[] {
  return (RENDERED_PATHS as readonly string[]).includes(path) && isSignedInPath(path)
    ? firstReadsOf(path)
    : [];
}

/** Loads the code of the page at `path`, so that renderPage can render it in one go. */
export function preparePage(path: string): Promise<void> {
  return loadPagesOf(path);
}

/**
 * The HTML of the signed-in page at `path` for `session`, with `render.answers` as its first reads.
 * Synchronous, once preparePage(path) has settled: the server renders each page in one go, in the
 * parent's time zone, and nothing of one render is shared with another (a cache of its own).
 */
export function renderPage(path: string, session: AdminSession, render: PageRender): string {
  const queryClient = createQueryClient();
  for (const [op, answer] of Object.entries(render.answers)) {
    queryClient.setQueryData(['dashboard', op], answer, { updatedAt: Date.parse(render.now) });
  }
  try {
    return renderToString(
      <StrictMode>
        <Providers serverSession={session}>
          <StaticRouter location={path}>
            <RenderedRoutes firstRender={render} keep queryClient={queryClient} />
          </StaticRouter>
        </Providers>
      </StrictMode>,
    );
  } finally {
    queryClient.clear();
  }
}
