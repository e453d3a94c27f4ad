import path from 'node:path';
import type { Plugin } from 'vite';

// Chunking for a cold load on a slow phone (issue 21): a route should come in a few files fetched
// in parallel, not in dozens of 1 KB chunks (each costs a request, and over HTTP/1.1 only six run
// at once). The login page is in the entry (app/routes.tsx). One group, `app`: what the signed-in
// pages share beyond the entry (react-query, the toaster, the layout and sidebar, the small UI
// components and icons) plus the home page's own modules, in one file. Modules a public page also
// imports (signup, logout, links from emails...) stay out of it, so those pages never download the
// signed-in app, and so does the entry's static graph: /login downloads the same bytes as before.
// Everything else keeps rolldown's automatic chunking.

type ModuleGraph = {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
};

export type ChunkRoots = {
  /** The entry module (src/main.tsx). */
  entry: string;
  /** Every other page reachable without a session. */
  publicPages: readonly string[];
  /** The signed-in shell (data providers, layout) and the home page. */
  app: readonly string[];
};

function staticClosure(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** The group name of a module, or null for rolldown's automatic chunking. */
export function chunkGroupNamer(roots: ChunkRoots) {
  let groups: Map<string, string> | undefined;
  return (id: string, graph: ModuleGraph): string | null => {
    if (!groups) {
      groups = new Map();
      const entry = staticClosure(graph, [roots.entry]);
      const publicPages = staticClosure(graph, roots.publicPages);
      for (const module of staticClosure(graph, roots.app)) {
        if (!entry.has(module) && !publicPages.has(module)) {
          groups.set(module, 'app');
        }
      }
    }
    return groups.get(id) ?? null;
  };
}

/** The roots of this app, as absolute module ids under `webRoot` (apps/web). */
export function keywardChunkRoots(webRoot: string): ChunkRoots {
  const at = (file: string) => path.resolve(webRoot, 'src', file);
  return {
    entry: at('main.tsx'),
    publicPages: [
      'LogoutPage',
      'SignupPage',
      'VerifySignupEmailPage',
      'MagicLinkLoginPage',
      'ForgotPasswordPage',
      'ResetPasswordPage',
      'ConferenceEmailPage',
      'ParentInvitePage',
    ].map((page) => at(`features/auth/${page}.tsx`)),
    app: [
      at('app/DataProviders.tsx'),
      at('app/AuthenticatedLayout.tsx'),
      at('features/dashboard/DashboardPage.tsx'),
    ],
  };
}

const ICON_IMPORT =
  /import\s*\{([^}]*)\}\s*from\s*['"](@heroicons\/react\/(?:16|20|24)\/(?:outline|solid))['"];?/g;

/** `import { A, B as C } from '@heroicons/react/24/outline'` as one import per icon file. */
export function deepIconImports(code: string): string {
  return code.replace(ICON_IMPORT, (_whole, names: string, from: string) =>
    names
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((name) => {
        const [icon, local = icon] = name.split(/\s+as\s+/);
        return `import ${local} from '${from}/${icon}';`;
      })
      .join(' '),
  );
}

/**
 * The icon package's index re-exports every icon, so the module graph would say that whoever
 * imports one icon imports them all; importing each icon from its own file gives the chunk groups
 * above the real graph.
 */
export function iconImportsPerFile(): Plugin {
  return {
    name: 'keyward-icon-imports-per-file',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/.*\.tsx?$/.test(id) || !code.includes('@heroicons/react/')) return null;
      return { code: deepIconImports(code), map: null };
    },
  };
}
