import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAGE_RENDER_ELEMENT_ID, type PageRender } from '@keyward/contract/page-render';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readSessionCookie } from '../src/http/signed-in-page.ts';
import { RATE_LIMITS } from '../src/pairql/rate-limit.ts';
import { createChild } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 30: the signed-in home page rendered by the server with its first reads, for the session
// of the HttpOnly cookie the dashboard sets beside its stored token. The dashboard's real renderer
// is tested in apps/web (test/signed-in-render.test.tsx) and end to end (e2e/tests/home.spec.ts);
// here a renderer of the same shape shows what the server gives it and does with its answer.

const INDEX = `<!doctype html><html><head><meta charset="UTF-8"><script>(function(){})();</script><title>Keyward SPA</title></head><body><div id="root" class="h-full"><p>Loading Keyward…</p></div></body></html>`;

// what the server hands the renderer, written into the page so the tests can read it back
const RENDERER = `
export function firstReadsFor(path) {
  return path === '/' ? ['DashboardWidgets', 'GetFamilyDevices', 'GetInbox', 'IOSDevices'] : [];
}
export async function preparePage() {}
export function renderPage(path, session, render) {
  if (globalThis.__failRender) throw new Error('render failed');
  const names = render.answers.DashboardWidgets.children.map((child) => child.name).join(',');
  const hour = new Date(render.now).getHours();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return '<main data-names="' + names + '" data-admin="' + session.adminId + '" data-hour="' + hour + '" data-zone="' + zone + '" data-mobile="' + render.isMobile + '">' + names + '</main>';
}
`;

let server: TestServer;
let webDist: string;
let alice: { adminId: string; token: string };
let bob: { adminId: string; token: string };

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'keyward-signed-in-'));
  mkdirSync(path.join(webDist, 'server'));
  writeFileSync(path.join(webDist, 'index.html'), INDEX);
  writeFileSync(path.join(webDist, 'server', 'entry-server.mjs'), RENDERER);
  server = await createTestServer({ env: { WEB_DIST: webDist } });
  alice = await server.signUpVerifiedParent();
  bob = await server.signUpVerifiedParent();
  await createChild(server, alice, { name: 'Alice<Kid>' });
  await createChild(server, bob, { name: 'BobKid' });
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

async function cookieFor(token: string, timeZone: unknown = 'Europe/Paris') {
  const response = await server.app.inject({
    method: 'POST',
    url: '/session-cookie',
    headers: { 'x-admintoken': token, 'content-type': 'application/json' },
    payload: JSON.stringify({ timeZone }),
  });
  expect(response.statusCode).toBe(204);
  const header = String(response.headers['set-cookie']);
  return { header, cookie: header.split(';')[0] as string };
}

const home = (cookie?: string, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: 'GET',
    url: '/',
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });

function renderOf(body: string): PageRender {
  const match = new RegExp(
    `<script type="application/json" id="${PAGE_RENDER_ELEMENT_ID}">([^<]*)</script>`,
  ).exec(body);
  if (!match) throw new Error(`no render in ${body}`);
  return JSON.parse(match[1] as string);
}

describe('the session cookie', () => {
  test('is set for a valid token: HttpOnly, SameSite=Strict, with the browser time zone', async () => {
    const { header } = await cookieFor(alice.token);
    expect(header).toMatch(new RegExp(`^keyward_session=${alice.token}\\.Europe%2FParis;`));
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/');
    expect(header).not.toContain('Secure'); // http://127.0.0.1 in tests; https public URLs add it
  });

  test('an unknown time zone is kept as UTC', async () => {
    for (const zone of ['Mars/Olympus', 'x'.repeat(500), 42, null]) {
      const { cookie } = await cookieFor(alice.token, zone);
      expect(readSessionCookie(cookie)?.timeZone).toBe('UTC');
    }
  });

  test('no cookie without a valid session', async () => {
    for (const token of [undefined, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/session-cookie',
        headers: token ? { 'x-admintoken': token } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().type).toBe('loggedOut');
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  test('DELETE clears it', async () => {
    const response = await server.app.inject({ method: 'DELETE', url: '/session-cookie' });
    expect(response.statusCode).toBe(204);
    expect(String(response.headers['set-cookie'])).toMatch(/^keyward_session=; .*Max-Age=0/);
  });
});

describe('the signed-in home page, rendered by the server', () => {
  test("is rendered with the family's own first reads, in the cookie's time zone", async () => {
    const { cookie } = await cookieFor(alice.token, 'Asia/Tokyo');
    const response = await home(cookie, { 'user-agent': 'Mozilla/5.0 (iPhone) Mobile' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(String(response.headers.vary)).toContain('Cookie');
    const body = response.body;
    expect(body).toContain('<div id="root" class="h-full" data-rendered-for="/"><main');
    expect(body).toContain('<meta name="keyward-rendered" content="/">');
    expect(body).not.toContain('Loading Keyward');
    expect(body).toContain('data-zone="Asia/Tokyo"');
    expect(body).toContain('data-mobile="true"');
    expect(body).toContain(`data-admin="${alice.adminId}"`);
    // the same answers the API gives the dashboard, and they go with the page
    const render = renderOf(body);
    const api = await server.call('DashboardWidgets', undefined, { token: alice.token });
    expect(render.answers.DashboardWidgets).toEqual(api.body);
    expect(Object.keys(render.answers).sort()).toEqual(
      ['DashboardWidgets', 'GetFamilyDevices', 'GetInbox', 'IOSDevices'].sort(),
    );
    expect(render.adminId).toBe(alice.adminId);
    const hourInTokyo = Number(
      new Intl.DateTimeFormat('en-US', {
        hour: 'numeric',
        hourCycle: 'h23',
        timeZone: 'Asia/Tokyo',
      }).format(new Date(render.now)),
    );
    expect(body).toContain(`data-hour="${hourInTokyo}"`);
    // the process's own time zone is left as it was
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).not.toBe('Asia/Tokyo');
  });

  test('the data cannot close its script: < is escaped', async () => {
    const { cookie } = await cookieFor(alice.token);
    const body = (await home(cookie)).body;
    const data = body.slice(body.indexOf(`id="${PAGE_RENDER_ELEMENT_ID}">`));
    expect(data).toContain('Alice\\u003cKid>');
    expect(renderOf(body).answers.DashboardWidgets).toMatchObject({
      children: [expect.objectContaining({ name: 'Alice<Kid>' })],
    });
  });

  test("each family's cookie renders that family's page only", async () => {
    const a = (await home((await cookieFor(alice.token)).cookie)).body;
    const b = (await home((await cookieFor(bob.token)).cookie)).body;
    expect(a).toContain('data-names="Alice<Kid>"');
    expect(a).not.toContain('BobKid');
    expect(b).toContain('data-names="BobKid"');
    expect(b).not.toContain('Alice');
  });

  test('without a cookie, with a query string, or another path: index.html as before', async () => {
    const { cookie } = await cookieFor(alice.token);
    for (const response of [
      await home(),
      await server.app.inject({ method: 'GET', url: '/?x=1', headers: { cookie } }),
      await server.app.inject({ method: 'GET', url: '/children', headers: { cookie } }),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Loading Keyward');
      expect(response.body).not.toContain('data-rendered-for');
    }
  });

  test('a revoked or unknown session renders nothing and clears the cookie', async () => {
    const parent = await server.signUpVerifiedParent();
    const { cookie } = await cookieFor(parent.token);
    expect((await home(cookie)).body).toContain('data-rendered-for');
    expect((await server.call('Logout', undefined, { token: parent.token })).status).toBe(200);
    for (const stale of [
      cookie,
      'keyward_session=00000000-0000-4000-8000-000000000000.UTC',
      'keyward_session=%%%.%E0%A4%A',
      'keyward_session=',
    ]) {
      const response = await home(stale);
      expect(response.statusCode, stale).toBe(200);
      expect(response.body, stale).toContain('Loading Keyward');
    }
    expect(String((await home(cookie)).headers['set-cookie'])).toMatch(/Max-Age=0/);
  });

  test('a renderer that fails answers index.html, never a 500', async () => {
    const { cookie } = await cookieFor(alice.token);
    (globalThis as { __failRender?: boolean }).__failRender = true;
    try {
      const response = await home(cookie);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Loading Keyward');
    } finally {
      delete (globalThis as { __failRender?: boolean }).__failRender;
    }
  });

  test('the renderer is not a file anyone can download', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/server/entry-server.mjs' });
    expect(response.body).not.toContain('firstReadsFor');
  });

  test('the same home page asked 50 times at once: each rendered with its own answers', async () => {
    const { cookie } = await cookieFor(alice.token, 'America/New_York');
    const answers = await Promise.all(Array.from({ length: 50 }, () => home(cookie)));
    for (const response of answers) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('data-zone="America/New_York"');
      expect(response.body).toContain('data-names="Alice<Kid>"');
    }
  });

  test('a reload loop past the session budget gets index.html, not a render each time', async () => {
    // a server of its own with the real budgets (the suite's are scaled up 100×)
    const strict = await createTestServer({ env: { WEB_DIST: webDist, RATE_LIMIT_SCALE: '1' } });
    try {
      const parent = await strict.signUpVerifiedParent();
      const set = await strict.app.inject({
        method: 'POST',
        url: '/session-cookie',
        headers: { 'x-admintoken': parent.token, 'content-type': 'application/json' },
        payload: JSON.stringify({ timeZone: 'UTC' }),
      });
      const cookie = String(set.headers['set-cookie']).split(';')[0] as string;
      const { limit } = RATE_LIMITS.signedInRendersPerSession;
      const answers = await Promise.all(
        Array.from({ length: limit + 20 }, () =>
          strict.app.inject({ method: 'GET', url: '/', headers: { cookie } }),
        ),
      );
      expect(answers.every((response) => response.statusCode === 200)).toBe(true);
      const rendered = answers.filter((response) => response.body.includes('data-rendered-for'));
      expect(rendered).toHaveLength(limit);
      expect(answers.filter((response) => response.body.includes('Loading Keyward'))).toHaveLength(
        20,
      );
    } finally {
      await strict.close();
    }
  });
});
