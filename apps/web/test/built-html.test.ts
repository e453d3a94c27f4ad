import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { COMPILE_EAGERLY } from '../build/chunks';
import { HTML_READS_GLOBAL } from '../src/lib/api/early-fetch';
import { ADMIN_TOKEN_KEY } from '../src/lib/session';
import { RENDERED_META_NAME } from '@keyward/contract/page-render';
import { RENDERED_META } from '../build/first-screen-preload';

// Issue 21: the built index.html starts the first route's chunks itself, with no chain: the
// entry's imports are modulepreloaded, the login form is in the entry, and a signed-in visit
// preloads the signed-in shell (layout, react-query, home page) and sends the home page's reads
// from a script inlined in the HTML (no request of its own), before the entry has arrived.

type ManifestChunk = { file: string; name?: string; imports?: string[]; isEntry?: boolean };

const webRoot = path.resolve(import.meta.dirname, '..');
let outDir: string;
let html: string;
let manifest: Record<string, ManifestChunk>;
let script: string;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'keyward-web-build-'));
  // as `npm run build` does: vitest's NODE_ENV=test would bundle React's development build
  vi.stubEnv('NODE_ENV', 'production');
  await build({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  vi.unstubAllEnvs();
  html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
  const inline = /<script>([\s\S]+?)<\/script>/.exec(html)?.[1];
  if (!inline) throw new Error(`no first-screen script in index.html:\n${html}`);
  script = inline;
}, 180_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

function chunk(key: string): ManifestChunk {
  const found = manifest[key];
  if (!found) throw new Error(`${key} is not in the manifest`);
  return found;
}

function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of chunk(key).imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

const entryKey = () => Object.keys(manifest).find((key) => chunk(key).isEntry) as string;
const shellKey = () => Object.keys(manifest).find((key) => chunk(key).name === 'app') as string;
/** rolldown's helpers (150 bytes: the namespace objects of lazily imported pages), alone in a file. */
const isBundlerRuntime = (key: string) => chunk(key).name === 'rolldown-runtime';

/** Runs the first-screen script as a browser would on `pathname`; returns what it did. */
function runScript(pathname: string, token?: string, { isRendered = false } = {}) {
  const storage = (value?: string) => ({
    getItem: (key: string) => (key === ADMIN_TOKEN_KEY ? (value ?? null) : null),
  });
  const links: { rel: string; href: string; crossOrigin: string | null }[] = [];
  const fetch = vi.fn((_url: string, _init?: RequestInit) => new Promise(() => {}));
  const window: Record<string, unknown> = {};
  const document = {
    // issue 30: the server's meta in a page it rendered with its first reads
    querySelector: (selector: string) =>
      isRendered && selector === `meta[name="${RENDERED_META_NAME}"]` ? {} : null,
    createElement: () => ({ rel: '', href: '', crossOrigin: null }),
    head: { appendChild: (link: (typeof links)[number]) => links.push(link) },
  };
  new Function('location', 'localStorage', 'sessionStorage', 'document', 'fetch', 'window', script)(
    { pathname },
    storage(token),
    storage(),
    document,
    fetch,
    window,
  );
  return { links, fetch, window };
}

describe('the built index.html (issue 21)', () => {
  test("modulepreloads the entry's imports; the login form is in the entry", () => {
    const entry = chunk(entryKey());
    expect(html).toContain(`<script type="module" crossorigin src="/${entry.file}"></script>`);
    for (const imported of entry.imports ?? []) {
      expect(html).toContain(
        `<link rel="modulepreload" crossorigin href="/${chunk(imported).file}">`,
      );
    }
    expect(manifest['src/features/auth/LoginPage.tsx']).toBeUndefined();
  });

  test('a signed-in visit preloads the whole signed-in shell and sends the home reads', () => {
    const entryFiles = new Set([...closure([entryKey()])].map((key) => chunk(key).file));
    const shellFiles = [...closure([shellKey()])]
      .map((key) => chunk(key).file)
      .filter((file) => !entryFiles.has(file));
    expect(shellFiles).toContain(chunk(shellKey()).file);

    const home = runScript('/', 'token-1');
    expect(home.links.map((link) => link.href).sort()).toEqual(
      shellFiles.map((file) => `/${file}`).sort(),
    );
    expect(
      home.links.every((link) => link.rel === 'modulepreload' && link.crossOrigin === ''),
    ).toBe(true);
    expect(home.fetch.mock.calls.map(([url]) => url)).toEqual([
      '/pairql/dashboard/IOSDevices',
      '/pairql/dashboard/DashboardWidgets',
      '/pairql/dashboard/GetFamilyDevices',
      '/pairql/dashboard/GetInbox',
    ]);
    expect(home.fetch.mock.calls[0]).toMatchObject([
      expect.any(String),
      { method: 'POST', headers: { 'X-AdminToken': 'token-1' } },
    ]);
    expect(home.window[HTML_READS_GLOBAL]).toMatchObject({ token: 'token-1' });

    // another signed-in page: the shell, but its reads are the entry's to send
    const children = runScript('/children', 'token-1');
    expect(children.links).toHaveLength(shellFiles.length);
    expect(children.fetch).not.toHaveBeenCalled();
  });

  test('on a page the server rendered with its reads, it preloads the shell and sends no read (issue 30)', () => {
    expect(RENDERED_META).toBe(RENDERED_META_NAME);
    const plain = runScript('/', 'token-1');
    const rendered = runScript('/', 'token-1', { isRendered: true });
    expect(rendered.fetch).not.toHaveBeenCalled();
    expect(rendered.window[HTML_READS_GLOBAL]).toBeUndefined();
    expect(rendered.links.map((link) => link.href)).toEqual(plain.links.map((link) => link.href));
    expect(plain.fetch).toHaveBeenCalled();
  });

  test('the script is inline and comes before every stylesheet and script of the head', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    const at = head.indexOf(`<script>${script}</script>`);
    expect(at).toBeGreaterThan(head.indexOf('<meta charset'));
    for (const tag of [
      '<link rel="stylesheet"',
      '<script type="module"',
      '<link rel="modulepreload"',
    ]) {
      expect(head.indexOf(tag)).toBeGreaterThan(at);
    }
    expect(
      readdirSync(path.join(outDir, 'assets')).filter((f) => f.includes('first-screen')),
    ).toEqual([]);
  });

  test('without a session (/login), and on /logout, the script does nothing', () => {
    for (const run of [runScript('/login'), runScript('/'), runScript('/logout', 'token-1')]) {
      expect(run.links).toEqual([]);
      expect(run.fetch).not.toHaveBeenCalled();
      expect(run.window).toEqual({});
    }
  });

  test("the first load's chunks carry V8's compile hint; later pages' chunks do not", () => {
    const source = (key: string) => readFileSync(path.join(outDir, chunk(key).file), 'utf8');
    const firstLoad = closure([entryKey(), shellKey()]);
    for (const key of firstLoad) {
      if (isBundlerRuntime(key)) continue;
      expect(source(key).startsWith(`${COMPILE_EAGERLY}\n`)).toBe(true);
    }
    const settings = 'src/features/settings/SettingsPage.tsx';
    expect(firstLoad.has(settings)).toBe(false);
    expect(source(settings)).not.toContain(COMPILE_EAGERLY);
  });

  test("react-router's production build is shipped, not its development one", () => {
    const shipped = [...closure([entryKey()])].map((key) =>
      readFileSync(path.join(outDir, chunk(key).file), 'utf8'),
    );
    expect(
      shipped.some((code) => code.includes('createBrowserHistory') || code.includes('useRoutes')),
    ).toBe(true);
    // the development build's warnings and their texts
    for (const code of shipped) expect(code).not.toContain('Hey developer');
  });

  test('a signed-in first load is the entry and two chunks; /login downloads neither', () => {
    const sharedKey = Object.keys(manifest).find((key) => chunk(key).name === 'shared') as string;
    expect(sharedKey).toBeDefined();
    const entryFiles = closure([entryKey()]);
    expect(entryFiles.has(shellKey())).toBe(false);
    expect(entryFiles.has(sharedKey)).toBe(false);
    // react-query is in `shared`, not in the entry (lib/online.ts)
    const source = (key: string) => readFileSync(path.join(outDir, chunk(key).file), 'utf8');
    expect(source(sharedKey)).toContain('QueryClient');
    for (const key of entryFiles) expect(source(key)).not.toContain('QueryClient');
    const signedIn = [...closure([entryKey(), shellKey()])].filter(
      (key) => !entryFiles.has(key) && !isBundlerRuntime(key),
    );
    expect(signedIn.sort()).toEqual([shellKey(), sharedKey].sort());
  });

  test('the home page comes in a few files', () => {
    const files = closure([entryKey(), shellKey()]);
    expect(files.size).toBeLessThanOrEqual(10);
  });
});

describe('the dashboard runs on React itself (issue 30)', () => {
  const root = path.resolve(webRoot, '../..');

  test('the lockfile resolves react and react-dom to React 19, and nothing to Preact', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string; name?: string }>;
    };
    const entries = Object.entries(lock.packages);
    const copies = (name: string) =>
      entries.filter(
        ([key]) => key === `node_modules/${name}` || key.endsWith(`/node_modules/${name}`),
      );
    for (const name of ['react', 'react-dom']) {
      const found = copies(name);
      expect(found.map(([key]) => key)).toEqual([`node_modules/${name}`]);
      const [, entry] = found[0] as [string, { version?: string; name?: string }];
      expect(entry.version).toMatch(/^19\.\d+\.\d+$/);
      expect(entry.name ?? name).toBe(name); // an npm alias records the real package's name here
    }
    expect(entries.filter(([key]) => /(^|\/)(preact|@preact\/[^/]+)$/.test(key))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(manifest.overrides?.react).toBeUndefined();
    expect(manifest.overrides?.['react-dom']).toBeUndefined();
  });

  test("the built entry carries React DOM's own renderer", () => {
    const shipped = [...closure([entryKey()])]
      .map((key) => readFileSync(path.join(outDir, chunk(key).file), 'utf8'))
      .join('\n');
    const { version } = JSON.parse(
      readFileSync(path.join(root, 'node_modules/react-dom/package.json'), 'utf8'),
    ) as { version: string };
    // React DOM introduces itself to React's devtools by its name and version
    expect(shipped).toContain('__REACT_DEVTOOLS_GLOBAL_HOOK__');
    expect(shipped).toMatch(new RegExp(`reconcilerVersion:\\s*[\`"']${version}[\`"']`));
    expect(shipped).not.toContain('jsxDEV'); // React's production build, as `npm run build` ships
    // Preact's options hooks and its devtools' global
    expect(shipped).not.toContain('__PREACT_DEVTOOLS__');
    expect(shipped).not.toMatch(/\b__[bdehHs]:/);
  });
});
