import path from 'node:path';
import type { Plugin } from 'vite';

// Chunking for a cold load on a slow phone (issue 21): a route should come in a few files fetched
// in parallel, not in dozens of 1 KB chunks (each costs a request, and over HTTP/1.1 only six run
// at once). The login page is in the entry (app/routes.tsx). Two groups beyond the entry:
// - `app`: what only the signed-in pages use of the signed-in shell and the home page (the layout
//   and sidebar, the toaster, the small UI components and icons, the home page's own modules);
// - `shared`: the rest of that shell, which a public page (signup, logout, links from emails...)
//   also imports, react-query above all, so those pages never download the signed-in app.
// The entry's own static graph stays out of both: /login downloads only the entry. A signed-in
// first load is then the entry and these two files, preloaded by index.html
// (build/first-screen-preload.ts). Everything else keeps rolldown's automatic chunking.

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

/**
 * The group name of a module, or null for rolldown's automatic chunking. Once chunking has run,
 * `firstScreen()` holds the modules a first load can run at once: the entry's static graph and the
 * signed-in shell's (what index.html loads or preloads, build/first-screen-preload.ts).
 */
export function chunkGroupNamer(roots: ChunkRoots) {
  let groups: Map<string, string> | undefined;
  let firstScreen = new Set<string>();
  const namer = (id: string, graph: ModuleGraph): string | null => {
    if (!groups) {
      groups = new Map();
      const entry = staticClosure(graph, [roots.entry]);
      const publicPages = staticClosure(graph, roots.publicPages);
      const app = staticClosure(graph, roots.app);
      for (const module of app) {
        if (entry.has(module)) continue;
        groups.set(module, publicPages.has(module) ? 'shared' : 'app');
      }
      firstScreen = new Set([...entry, ...app]);
    }
    return groups.get(id) ?? null;
  };
  return Object.assign(namer, { firstScreen: () => firstScreen });
}

/** V8's explicit compile hint (Chrome 136+): compile every function of the file while it downloads. */
export const COMPILE_EAGERLY = '//# allFunctionsCalledOnLoad';

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

type OutputItem =
  | { type: 'asset'; source: string | Uint8Array }
  | {
      type: 'chunk';
      code: string;
      isEntry: boolean;
      moduleIds: readonly string[];
      map: { mappings: string } | null;
    };

/**
 * The compile hint, first line of the chunks of a first load. V8 otherwise compiles a function on
 * the main thread when it is first called, and on a phone's first load nearly every function of
 * these chunks is called at once (React's renderer, the router, the layout); with the hint V8
 * compiles them on a background thread as the bytes stream in. Chunks of pages fetched later keep
 * lazy compilation. Added once the chunks are final (minified, import map in), where the comment
 * must stay first; a source map, if any, moves one line down.
 */
export function compileHints(firstScreen: () => ReadonlySet<string>): Plugin {
  const hinted = (chunk: { isEntry: boolean; moduleIds: readonly string[] }) =>
    chunk.isEntry || chunk.moduleIds.some((id) => firstScreen().has(id));
  return {
    name: 'keyward-compile-hints',
    apply: 'build',
    enforce: 'post',
    // the hint is part of the file: its name's hash must say so
    augmentChunkHash(chunk) {
      return hinted(chunk) ? COMPILE_EAGERLY : undefined;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const output = bundle as unknown as Record<string, OutputItem>;
        for (const [fileName, item] of Object.entries(output)) {
          if (item.type !== 'chunk') continue;
          if (!hinted(item)) continue;
          item.code = `${COMPILE_EAGERLY}\n${item.code}`;
          if (item.map) item.map.mappings = `;${item.map.mappings}`;
          const map = output[`${fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const json = JSON.parse(map.source) as { mappings: string };
            map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
          }
        }
      },
    },
  };
}
