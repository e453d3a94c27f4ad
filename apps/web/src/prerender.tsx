import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { RenderedRoutes } from './app/App';
import { Providers } from './app/Providers';

// Issue 30: the public pages are rendered to HTML at build time (scripts/prerender.mjs writes them
// into dist/prerendered/), so a first visit to /login has its form in the first response, before
// any script has arrived; main.tsx then hydrates that HTML instead of rendering anew. These pages
// are rendered as a visitor without a session and without a query string sees them; the server
// answers the prerendered page only to such a request (apps/server/src/http/spa.ts), and the client
// hydrates only then (app/hydration.ts).

/** The public pages rendered at build time, by path. */
export const PRERENDERED_PATHS = [
  '/login',
  '/signup',
  '/reset-password',
  '/conf-workshop',
  '/conf-booth',
] as const;

/** The HTML of the app at `path`, once every lazy page in it has arrived. */
export async function renderPage(path: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Providers>
        <StaticRouter location={path}>
          <RenderedRoutes />
        </StaticRouter>
      </Providers>
    </StrictMode>,
  );
  const parts: Buffer[] = [];
  for await (const part of prelude) parts.push(Buffer.from(part));
  return Buffer.concat(parts).toString('utf8');
}
