import type { QueryClient } from '@tanstack/react-query';
import { createContext } from 'react';

/**
 * A page rendered on the server (src/entry-server.tsx, issue 30) renders with a cache of its own,
 * filled with that parent's first reads: never the module's one (query-client.ts), which every
 * request would share. Null in the browser. (Its own module: the entry must not import
 * react-query at run time.)
 */
export const RenderQueryClient = createContext<QueryClient | null>(null);
