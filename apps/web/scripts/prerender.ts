// Issue 30: after `vite build`, renders the public pages (src/prerender.tsx) to HTML with React's
// own static renderer, each into a copy of dist/index.html:
//
//   dist/prerendered/login.html (+ .br, .gz)   the page's HTML inside #root, data-prerendered="/login"
//   dist/prerendered/pages.json                { "/login": "login.html", … } for the server
//
// The server answers those files to a bare GET of the path (apps/server/src/http/spa.ts), so the
// email field of /login is in the first response; main.tsx hydrates it.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { precompressDirectory } from '../build/precompress.ts';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(webRoot, 'dist');

/** index.html with `html` inside #root (in place of the "Loading Keyward…" placeholder). */
export function withPageHtml(indexHtml: string, pagePath: string, html: string): string {
  const open = '<div id="root" class="h-full">';
  const start = indexHtml.indexOf(open);
  const end = start === -1 ? -1 : indexHtml.indexOf('</div>', start);
  if (start === -1 || end === -1)
    throw new Error('dist/index.html has no <div id="root" class="h-full">…</div>');
  const attribute = `data-prerendered="${pagePath.replace(/[^a-z0-9/-]/gi, '')}"`;
  return `${indexHtml.slice(0, start)}<div id="root" class="h-full" ${attribute}>${html}${indexHtml.slice(end)}`;
}

/**
 * Builds `entry` (a module of src/) for Node into `outDir`, whole: React and every library inside
 * (the server loads dist/server/ from wherever the build is served), React's production build.
 */
export async function buildForNode(entry: string, outDir: string): Promise<void> {
  await build({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: false,
      minify: false,
      copyPublicDir: false,
      manifest: false,
      // .mjs: an ES module wherever the build is copied (no package.json beside it)
      rolldownOptions: { output: { codeSplitting: false, entryFileNames: '[name].mjs' } },
    },
  });
}

/** Builds src/prerender.tsx for Node and renders every public page: their HTML by path. */
export async function renderPublicPages(): Promise<Record<string, string>> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'keyward-prerender-'));
  try {
    await buildForNode('src/prerender.tsx', outDir);
    const { renderPage, PRERENDERED_PATHS }: typeof import('../src/prerender.tsx') = await import(
      pathToFileURL(path.join(outDir, 'prerender.mjs')).href
    );
    const pages: Record<string, string> = {};
    for (const pagePath of PRERENDERED_PATHS) {
      const html = await renderPage(pagePath);
      if (!html.includes('<')) throw new Error(`${pagePath} rendered nothing`);
      pages[pagePath] = html;
    }
    return pages;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function main() {
  const pages = await renderPublicPages();
  // --json: print the pages' HTML instead of writing dist/ (test/prerender.test.tsx)
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify(pages));
    return;
  }
  const indexHtml = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const pagesDir = path.join(dist, 'prerendered');
  rmSync(pagesDir, { recursive: true, force: true });
  mkdirSync(pagesDir);
  const files: Record<string, string> = {};
  for (const [pagePath, html] of Object.entries(pages)) {
    const file = `${pagePath.slice(1).replaceAll('/', '-')}.html`;
    writeFileSync(path.join(pagesDir, file), withPageHtml(indexHtml, pagePath, html));
    files[pagePath] = file;
  }
  writeFileSync(path.join(pagesDir, 'pages.json'), `${JSON.stringify(files, null, 2)}\n`);
  precompressDirectory(pagesDir);
  console.log(`prerendered ${Object.keys(files).join(', ')} into dist/prerendered/`);
  // the signed-in pages' renderer, for the server (src/entry-server.tsx)
  const serverDir = path.join(dist, 'server');
  rmSync(serverDir, { recursive: true, force: true });
  await buildForNode('src/entry-server.tsx', serverDir);
  console.log("built the signed-in pages' renderer into dist/server/entry-server.mjs");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
