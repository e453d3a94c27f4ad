import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useRoutes } from 'react-router';
import { RenderQueryClient } from '../lib/api/render-query-client';
import { type FirstRender, FirstRenderProvider } from '../lib/first-render';
import { Providers } from './Providers';
import { routes } from './routes';

export function AppRoutes() {
  return useRoutes(routes);
}

/**
 * The routes with what a render on the server (src/entry-server.tsx, src/prerender.tsx) and the
 * browser's render that hydrates it share: the same tree on both sides (issue 30).
 */
export function RenderedRoutes({
  firstRender = null,
  keep = false,
  queryClient = null,
}: {
  firstRender?: FirstRender | null;
  keep?: boolean;
  queryClient?: QueryClient | null;
}) {
  return (
    <FirstRenderProvider value={firstRender} keep={keep}>
      <RenderQueryClient.Provider value={queryClient}>
        <AppRoutes />
      </RenderQueryClient.Provider>
    </FirstRenderProvider>
  );
}

export function App({ firstRender = null }: { firstRender?: FirstRender | null }) {
  return (
    <Providers>
      <BrowserRouter>
        <RenderedRoutes firstRender={firstRender} />
      </BrowserRouter>
    </Providers>
  );
}
