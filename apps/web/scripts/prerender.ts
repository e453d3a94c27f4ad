// Issue 30: after `vite build`, renders the public pages (src/prerender.tsx) to HTML with React's
// own static renderer, each into a copy of dist/index.html:
//
//   dist/prerendered/login.html (+ .br, .gz)   the page's HTML inside #root, data-prerendered="/login"
//   dist/prerendered/pages.json                { "/login": "login.html", … } for the server
//
// The server answers those files to a bare GET of the path (apps/server/src/http/spa.ts), so the
// email field of /login is in the first response; main.tsx hydrates it.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Builds src/prerender.tsx for Node and renders every public page: their HTML by path. */
export async function renderPublicPages(): Promise<Record<string, string>> {
  // inside the package, so that the bundle's imports of react and the rest resolve
  const outDir = path.join(webRoot, `node_modules/.keyward-prerender-${process.pid}`);
  try {
    await build({
      root: webRoot,
      configFile: path.join(webRoot, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
      build: {
        ssr: 'src/prerender.tsx',
        outDir,
        emptyOutDir: true,
        minify: false,
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    const { renderPage, PRERENDERED_PATHS }: typeof import('../src/prerender.tsx') = await import(
      pathToFileURL(path.join(outDir, 'prerender.js')).href
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
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
