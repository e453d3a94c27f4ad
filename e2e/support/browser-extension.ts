import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type APIRequestContext,
  type BrowserContext,
  chromium,
  expect,
  type Page,
  type Worker,
} from '@playwright/test';
import { signInAsNewParent } from './auth-pages.ts';
import { dashboardCall } from './dashboard-call.ts';
import { addChildInBrowser, readConnectionCode } from './children.ts';

// Keyward for Chrome in the e2e tests: the extension built into a temp folder, loaded unpacked
// into a Chromium of its own (the child's browser), and a few local "websites" on 127.0.0.1 that
// the child's browser reaches by name (--host-resolver-rules), so nothing leaves the machine.

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface BuiltExtension {
  /** the unpacked folder Chromium loads */
  dir: string;
  dispose(): void;
}

/** Builds the extension from the working tree (a few seconds), so the test runs today's code. */
export function buildExtension(): BuiltExtension {
  const dist = mkdtempSync(join(tmpdir(), 'keyward-chrome-'));
  const result = spawnSync(
    process.execPath,
    [join(root, 'apps/browser-filter/scripts/build.mjs')],
    { cwd: root, env: { ...process.env, KEYWARD_BROWSER_FILTER_DIST: dist }, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    rmSync(dist, { recursive: true, force: true });
    throw new Error(`Building the extension failed:\n${result.stdout}\n${result.stderr}`);
  }
  return {
    dir: join(dist, 'unpacked'),
    dispose: () => rmSync(dist, { recursive: true, force: true }),
  };
}

/** The websites the child visits; every name resolves to 127.0.0.1 in the child's browser. */
export const SITE_NAMES = ['allowed-site.com', 'blocked-site.com', 'games-site.com'] as const;
export type SiteName = (typeof SITE_NAMES)[number];

export interface Sites {
  url(name: SiteName, path?: string): string;
  close(): Promise<void>;
}

/** One local HTTP server answering for every site name: "Welcome to <host>". */
export async function startSites(): Promise<Sites> {
  let port = 0;
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (req.url === '/picture.png') {
      res.setHeader('content-type', 'image/png');
      res.end();
      return;
    }
    // /with-picture shows a picture from blocked-site.com (a part the tab cannot load)
    const picture =
      req.url === '/with-picture'
        ? `<img alt="a picture" src="http://blocked-site.com:${port}/picture.png">`
        : '';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="en"><title>${host}</title><h1>Welcome to ${host}</h1>` +
        `${picture}<label>Search <input name="q"></label>` +
        '<label>Password <input type="password" name="p"></label></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (name, path = '/') => `http://${name}:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type DnrRule = { id: number; condition: Record<string, unknown>; action: { type: string } };
/** The part of the service worker's `chrome` the tests read (e2e has no @types/chrome). */
type ExtensionGlobals = {
  chrome: { declarativeNetRequest: { getDynamicRules(): Promise<DnrRule[]> } };
};

export interface ChildBrowser {
  context: BrowserContext;
  extensionId: string;
  /** the extension's service worker (it stays up: its push channel pings every 20 s) */
  worker(): Promise<Worker>;
  /** chrome-extension://<id>/<path> */
  extensionUrl(path: string): string;
  /** the DNR rules in force now */
  rules(): Promise<DnrRule[]>;
  close(): Promise<void>;
}

/**
 * The parent's side of connecting: the setup page of the child's browser takes the server's
 * address (unless the download carried it) and the connection code, and says who it is for.
 */
export async function connectChildBrowser(
  child: ChildBrowser,
  code: string,
  childName: string,
  serverUrl?: string,
): Promise<Page> {
  const setup = await child.context.newPage();
  await setup.goto(child.extensionUrl('setup.html'));
  await expect(setup.getByRole('heading', { name: 'Set up Keyward' })).toBeVisible();
  if (serverUrl) await setup.getByLabel('Keyward server address').fill(serverUrl);
  await setup.getByLabel('Connection code').fill(code);
  await setup.getByRole('button', { name: 'Connect' }).click();
  await expect(setup.getByRole('heading', { name: `Connected to ${childName}` })).toBeVisible();
  return setup;
}

/** A fresh Chromium profile with the extension installed, as on a child's computer. */
export async function launchChildBrowser(extensionDir: string): Promise<ChildBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'keyward-child-profile-'));
  const hostRules = SITE_NAMES.map((name) => `MAP ${name} 127.0.0.1`).join(', ');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      `--host-resolver-rules=${hostRules}`,
    ],
  });
  const findWorker = async () =>
    context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  const first = await findWorker();
  const extensionId = new URL(first.url()).host;
  // KEYWARD_E2E_DEBUG=1 prints the service worker's console (its `[keyward]` lines).
  if (process.env.KEYWARD_E2E_DEBUG) {
    first.on('console', (message) => console.log(`[child browser] ${message.text()}`));
  }
  const rules = async () =>
    (await findWorker()).evaluate(() =>
      (globalThis as unknown as ExtensionGlobals).chrome.declarativeNetRequest.getDynamicRules(),
    );
  // Until the worker's first rules, the manifest's static rules block everything without the
  // block page (Chrome's own error page): wait for them, as a child's first page would.
  await expect.poll(async () => (await rules()).length, { timeout: 15_000 }).toBeGreaterThan(0);
  return {
    context,
    extensionId,
    worker: findWorker,
    extensionUrl: (path) => `chrome-extension://${extensionId}/${path}`,
    rules,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

interface SuiteHooks {
  beforeAll(hook: () => Promise<void>): void;
  afterEach(hook: () => Promise<void>): void;
  afterAll(hook: () => Promise<void>): void;
}

export interface ChildBrowserSuite {
  /** the local websites, started before the file's tests */
  sites(): Sites;
  /** a child's browser with the extension built for this file (or another), closed after the test */
  launch(extensionDir?: string): Promise<ChildBrowser>;
}

/**
 * What every test file of a child's browser sets up: the extension built and the sites started
 * once before its tests, each test's child browsers closed after it, the rest after the file.
 */
export function childBrowserSuite(test: SuiteHooks): ChildBrowserSuite {
  let extension: BuiltExtension | undefined;
  let sites: Sites | undefined;
  const open = new Set<ChildBrowser>();
  test.beforeAll(async () => {
    extension = buildExtension();
    sites = await startSites();
  });
  test.afterEach(async () => {
    await Promise.all([...open].map((child) => child.close()));
    open.clear();
  });
  test.afterAll(async () => {
    await sites?.close();
    extension?.dispose();
  });
  return {
    sites() {
      if (!sites) throw new Error('the sites did not start (see beforeAll)');
      return sites;
    },
    async launch(extensionDir) {
      const dir = extensionDir ?? extension?.dir;
      if (!dir) throw new Error('the extension was not built (see beforeAll)');
      const child = await launchChildBrowser(dir);
      open.add(child);
      return child;
    },
  };
}

/** The block page for `url`, as the DNR redirect opens it. */
export function blockPageUrl(child: ChildBrowser, url: string): string {
  return `${child.extensionUrl('blocked.html')}#${url}`;
}

/** Whether some allow rule names `host` (a key's rules reached the browser). */
export function hasRuleFor(rules: DnrRule[], host: string): boolean {
  return rules.some(
    (rule) => rule.action.type === 'allow' && JSON.stringify(rule.condition).includes(host),
  );
}

/** Waits until the child's browser shows `url`'s page (its "Welcome to" heading). */
export async function expectSite(tab: Page, url: string, timeout = 15_000) {
  await expect(tab).toHaveURL(url, { timeout });
  await expect(
    tab.getByRole('heading', { name: `Welcome to ${new URL(url).hostname}` }),
  ).toBeVisible();
}

/** A new child of a new signed-in parent, with a key for allowed-site.com and a connection code. */
export async function childWithCode(
  page: Page,
  request: APIRequestContext,
  mailbox: Parameters<typeof signInAsNewParent>[2],
  label: string,
) {
  const parent = await signInAsNewParent(page, request, mailbox, label);
  const childName = `Noa ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  const keychainId = crypto.randomUUID();
  await dashboardCall(page, request, 'SaveKeychain', {
    isNew: true,
    id: keychainId,
    name: 'School',
    description: null,
  });
  await dashboardCall(page, request, 'ToggleChildKeychain', { childId, keychainId });
  await dashboardCall(page, request, 'SaveKey', {
    isNew: true,
    id: crypto.randomUUID(),
    keychainId,
    key: { type: 'anySubdomain', domain: 'allowed-site.com', scope: { type: 'webBrowsers' } },
  });
  await page.getByRole('button', { name: 'Get connection code' }).click();
  const code = await readConnectionCode(page);
  return { parent, childId, childName, keychainId, code };
}
