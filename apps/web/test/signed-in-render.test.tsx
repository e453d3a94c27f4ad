import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PAGE_RENDER_ELEMENT_ID,
  type PageRender,
  RENDERED_FOR_ATTRIBUTE,
} from '@keyward/contract/page-render';
import { act, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { RenderedRoutes } from '../src/app/App';
import { Providers } from '../src/app/Providers';
import { loadPagesOf } from '../src/app/routes';
import { KIM_ID, requestOf, SAM_ID, widgetsOf } from '../src/features/dashboard/test-fixtures';
import { forgetPageRender, pageRenderFor } from '../src/lib/page-render';
import { resetSessionCache } from '../src/lib/session';
import { ADMIN_ID, fakeServer, loggedIn, TOKEN } from './helpers';
import { MemoryRouter } from 'react-router';

// Issue 30: the signed-in home page rendered by the dashboard's server renderer
// (src/entry-server.tsx, built for Node as `npm run build` builds it, run in a process of its own
// as the server runs it), then hydrated here as main.tsx does: the HTML holds the child's name
// before any script, and React takes it over without a mismatch, with no read asked again.

// the render's time is now (the server's clock; its answers are then fresh for the browser)
const NOW = new Date().toISOString();
const inMinutes = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
const RESUMING = inMinutes(30);
const render: PageRender = {
  adminId: ADMIN_ID,
  now: NOW,
  isMobile: true,
  answers: {
    DashboardWidgets: widgetsOf({
      children: [
        {
          id: SAM_ID,
          name: 'Sam',
          status: { case: 'filterSuspended', resuming: RESUMING },
          numDevices: 2,
        },
        { id: KIM_ID, name: 'Kim', status: { case: 'offline' }, numDevices: 1 },
      ],
      unlockRequests: [{ ...requestOf(1, 3), createdAt: inMinutes(-3) }],
      recentScreenshots: [],
    }),
    GetFamilyDevices: [],
    GetInbox: { items: [], alerts: [] },
    GetUsers: [],
    IOSDevices: [],
  },
};

let html: string;
let workDir: string;
beforeAll(() => {
  const webRoot = path.resolve(import.meta.dirname, '..');
  workDir = mkdtempSync(path.join(tmpdir(), 'keyward-signed-in-render-'));
  const input = path.join(workDir, 'input.json');
  writeFileSync(input, JSON.stringify({ session: { adminId: ADMIN_ID, token: TOKEN }, render }));
  // the server renders in the parent's time zone, in a process whose own zone is another one
  const script = `
    import { readFileSync } from 'node:fs';
    import path from 'node:path';
    import { pathToFileURL } from 'node:url';
    import { buildForNode } from ${JSON.stringify(path.join(webRoot, 'scripts/prerender.ts'))};
    const outDir = ${JSON.stringify(path.join(workDir, 'server'))};
    await buildForNode('src/entry-server.tsx', outDir);
    const pages = await import(pathToFileURL(path.join(outDir, 'entry-server.mjs')).href);
    const { session, render } = JSON.parse(readFileSync(${JSON.stringify(input)}, 'utf8'));
    if (pages.firstReadsFor('/').join() !== 'IOSDevices,DashboardWidgets,GetFamilyDevices,GetInbox,GetUsers') throw new Error('reads: ' + pages.firstReadsFor('/'));
    await pages.preparePage('/');
    process.env.TZ = 'America/New_York';
    process.stdout.write(pages.renderPage('/', session, render));
  `;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    {
      cwd: webRoot,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', TZ: 'Asia/Tokyo' },
    },
  );
  if (result.status !== 0) throw new Error(`render failed:\n${result.stderr}`);
  html = result.stdout;
}, 120_000);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const roots: Root[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) act(() => root.unmount());
  document.body.innerHTML = '';
  forgetPageRender();
  resetSessionCache();
  vi.unstubAllEnvs();
});

/** The page as the server sends it, then main.tsx's hydration of it. */
async function hydrateHome() {
  vi.stubEnv('TZ', 'America/New_York');
  loggedIn();
  const calls = fakeServer(() => ({ body: {} }));
  const root = document.createElement('div');
  root.id = 'root';
  root.setAttribute(RENDERED_FOR_ATTRIBUTE, '/');
  root.innerHTML = html;
  const data = document.createElement('script');
  data.type = 'application/json';
  data.id = PAGE_RENDER_ELEMENT_ID;
  data.textContent = JSON.stringify(render);
  document.body.append(root, data);
  const before = root.innerHTML;
  const taken = pageRenderFor(
    document,
    { pathname: '/', search: '' },
    { adminId: ADMIN_ID, token: TOKEN },
  );
  expect(taken).toEqual(render);
  await loadPagesOf('/');
  const errors = vi.spyOn(console, 'error');
  const recoverable = vi.fn();
  // the app's own cache, filled as query-client.ts does when the page came rendered
  const { queryClient } = await import('../src/lib/api/query-client');
  const { adoptRenderedAnswers } = await import('../src/lib/api/early-fetch');
  queryClient.clear();
  adoptRenderedAnswers(queryClient, taken);
  await act(async () => {
    roots.push(
      hydrateRoot(
        root,
        <StrictMode>
          <Providers>
            <MemoryRouter initialEntries={['/']}>
              <RenderedRoutes firstRender={taken} />
            </MemoryRouter>
          </Providers>
        </StrictMode>,
        { onRecoverableError: recoverable },
      ),
    );
  });
  return { root, before, errors, recoverable, calls };
}

describe('the signed-in home page rendered by the server (issue 30)', () => {
  test("the HTML holds the children's names, their statuses and the request", () => {
    expect(html).toContain('>Sam<');
    expect(html).toContain('>Kim<');
    expect(html).toContain('site1.example.com');
    expect(html).not.toContain('Loading...');
    // in the parent's time zone (New York), not the process's (Tokyo)
    const time = (timeZone: string) =>
      new Date(RESUMING).toLocaleTimeString('en-US', {
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      });
    // as the status words show it ("until 11:12 PM" holds "1:12 PM": the whole phrase is checked)
    expect(html).toContain(`until ${time('America/New_York')}<`);
    expect(html).not.toContain(`until ${time('Asia/Tokyo')}<`);
    // the phone's layout (the render's isMobile)
    expect(html).toContain('aria-label="Open menu"');
  });

  test('hydrating it reports no mismatch and asks no read again', async () => {
    const { root, before, errors, recoverable, calls } = await hydrateHome();
    expect(before).toContain('>Sam<');
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect(calls.map((call) => call.op)).toEqual([]);
    expect(root.textContent).toContain('Sam');
  });

  test('a page for another session, or with a query string, is not taken over', () => {
    const root = document.createElement('div');
    root.id = 'root';
    root.setAttribute(RENDERED_FOR_ATTRIBUTE, '/');
    const data = document.createElement('script');
    data.type = 'application/json';
    data.id = PAGE_RENDER_ELEMENT_ID;
    data.textContent = JSON.stringify(render);
    document.body.append(root, data);
    const other = { adminId: 'someone-else', token: 'x' };
    expect(pageRenderFor(document, { pathname: '/', search: '' }, other)).toBeNull();
    forgetPageRender();
    expect(
      pageRenderFor(document, { pathname: '/', search: '?x' }, { adminId: ADMIN_ID, token: TOKEN }),
    ).toBeNull();
    forgetPageRender();
    expect(
      pageRenderFor(
        document,
        { pathname: '/children', search: '' },
        { adminId: ADMIN_ID, token: TOKEN },
      ),
    ).toBeNull();
    forgetPageRender();
    expect(pageRenderFor(document, { pathname: '/', search: '' }, null)).toBeNull();
    forgetPageRender();
    data.textContent = '{"adminId": cut sh';
    expect(
      pageRenderFor(document, { pathname: '/', search: '' }, { adminId: ADMIN_ID, token: TOKEN }),
    ).toBeNull();
  });

  test("once hydrated, the page follows the browser: jsdom's 1024 px window gets the desktop layout", async () => {
    const { errors, recoverable } = await hydrateHome();
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
    expect(screen.getByRole('navigation')).toBeInTheDocument();
    expect(screen.getAllByText('Sam').length).toBeGreaterThan(0);
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });
});
