import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createTestServer, type TestServer, uniqueEmail } from './harness.ts';

const ALLOWED = 'https://dashboard.example.com';
const SECOND = 'http://localhost:5173';

let server: TestServer;
let webDist: string;
const INLINE_SCRIPT = "(function(){window.first='screen'})();";
beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'keyward-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    `<!doctype html><head><meta charset="UTF-8"><script>${INLINE_SCRIPT}</script><script type="module" src="/assets/app-abc123.js"></script><title>Keyward SPA</title>`,
  );
  writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(webDist, 'favicon.svg'), '<svg/>');
  // issue 30: a public page rendered at build time (apps/web/scripts/prerender.ts)
  mkdirSync(path.join(webDist, 'prerendered'));
  writeFileSync(
    path.join(webDist, 'prerendered', 'login.html'),
    `<!doctype html><head><script>${INLINE_SCRIPT}</script><title>Keyward SPA</title></head><div id="root" data-prerendered="/login"><input type="email"></div>`,
  );
  writeFileSync(
    path.join(webDist, 'prerendered', 'login.html.gz'),
    gzipSync('<div id="root" data-prerendered="/login"><input type="email"></div>'),
  );
  writeFileSync(
    path.join(webDist, 'prerendered', 'pages.json'),
    JSON.stringify({ '/login': 'login.html', '/signup': '../index.html' }),
  );
  writeFileSync(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(webDist, 'manifest.webmanifest'), '{"name":"Keyward"}');
  writeFileSync(path.join(webDist, 'manifest.webmanifest.gz'), gzipSync('{"name":"Keyward"}'));
  server = await createTestServer({
    env: { DASHBOARD_URL: `${ALLOWED},${SECOND}/`, WEB_DIST: webDist },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('healthz', () => {
  test('answers ok after checking the database', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });
});

describe('CORS', () => {
  test('preflight from an allowed origin', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/pairql/dashboard/Login',
      headers: {
        origin: SECOND,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-admintoken',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(SECOND);
    expect(response.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(response.headers['access-control-allow-headers']).toBe(
      'Content-Type, X-AdminToken, X-DashboardUrl',
    );
    expect(Number(response.headers['access-control-max-age'])).toBeGreaterThanOrEqual(600);
    expect(response.headers.vary).toContain('Origin');
  });

  test('preflight from another origin gets no Allow-Origin', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/pairql/dashboard/Login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('success and error responses carry Allow-Origin and expose Retry-After', async () => {
    const ok = await server.call(
      'SaveConferenceEmail',
      { email: 'x@example.com', source: 'booth' },
      { headers: { origin: ALLOWED } },
    );
    const error = await server.call('GetAdmin', undefined, { headers: { origin: ALLOWED } });
    for (const result of [ok, error]) {
      expect(result.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(result.headers['access-control-expose-headers']).toBe('Retry-After');
    }
    expect(error.status).toBe(401);
  });

  test('responses to a foreign origin carry no Allow-Origin', async () => {
    const result = await server.call('GetAdmin', undefined, {
      headers: { origin: 'https://evil.example' },
    });
    expect(result.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('X-DashboardUrl', () => {
  test.each([
    [`${SECOND}/`, SECOND],
    [SECOND, SECOND],
    ['https://evil.example', ALLOWED],
    [`${ALLOWED}//`, ALLOWED],
    [undefined, ALLOWED],
  ])('header %s → links start with %s', async (header, expected) => {
    const email = uniqueEmail();
    await server.call(
      'Signup',
      { email, password: 'secret1' },
      header ? { headers: { 'x-dashboardurl': header } } : {},
    );
    const mail = server.lastEmailTo(email, 'initial-signup');
    expect(mail.links.some((link) => link.startsWith(`${expected}/verify-signup-email/`))).toBe(
      true,
    );
  });
});

describe('SPA', () => {
  test('index.html at / with no-cache', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Keyward SPA');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  test('history fallback for client routes', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/children/123?tab=keys' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Keyward SPA');
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  test('a bare GET of a prerendered public page answers its HTML (issue 30)', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/login' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('data-prerendered="/login"');
    expect(response.body).toContain('type="email"');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain(
      `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`,
    );
    const gzipped = await server.app.inject({
      method: 'GET',
      url: '/login',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toContain('data-prerendered="/login"');
  });

  test('with a query string, or a path the build did not render, the page is index.html', async () => {
    for (const url of ['/login?reset', '/login?redirect=/children', '/login/', '/signup']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Keyward SPA');
      expect(response.body, url).not.toContain('data-prerendered');
    }
  });

  test('hashed assets are immutable', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('a missing hashed asset is a 404, not the dashboard page', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Keyward SPA');
  });

  test('other files are served without long caching', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  test('issue 23: the service worker is never kept stale, the manifest has its own type', async () => {
    const worker = await server.app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-type']).toMatch(/javascript/);
    for (const encoding of ['identity', 'gzip']) {
      const manifest = await server.app.inject({
        method: 'GET',
        url: '/manifest.webmanifest',
        headers: { 'accept-encoding': encoding },
      });
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
      expect(manifest.headers['cache-control']).toBe('no-cache');
    }
    const decide = await server.app.inject({ method: 'GET', url: '/push-actions/decide' });
    expect(decide.statusCode).toBe(404);
    expect(decide.body).not.toContain('Keyward SPA');
  });

  test('API paths never fall back to index.html', async () => {
    for (const url of ['/pairql/dashboard/GetAdmin', '/macos-app/channel-x', '/healthz/x']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('Keyward SPA');
    }
  });

  test('security headers and CSP', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    // the page's own inline script (the first-screen preload), allowed by its hash and nothing else
    const hash = createHash('sha256').update(INLINE_SCRIPT).digest('base64');
    expect(/script-src ([^;]*)/.exec(csp)?.[1]).toBe(`'self' 'sha256-${hash}'`);
    const deep = await server.app.inject({ method: 'GET', url: '/children/abc' });
    expect(deep.headers['content-security-policy']).toBe(csp);
    // an API answer's policy allows no inline script at all
    const api = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(String(api.headers['content-security-policy'])).not.toContain('sha256-');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // the same answer as frame-ancestors 'none'
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  test('without a build, / explains how to build the dashboard', async () => {
    const bare = await createTestServer();
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });
});

describe('configuration', () => {
  test('a bad value names the variable', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', HMAC_KEY: 'a'.repeat(64), ENCRYPTION_KEY: 'b'.repeat(64) }),
    ).toThrow(/PORT/);
    expect(() => loadConfig({ NODE_ENV: 'prod' })).toThrow(/NODE_ENV/);
    expect(() =>
      loadConfig({
        DASHBOARD_URL: 'not a url',
        HMAC_KEY: 'a'.repeat(64),
        ENCRYPTION_KEY: 'b'.repeat(64),
      }),
    ).toThrow(/DASHBOARD_URL/);
    expect(() =>
      loadConfig({
        RATE_LIMIT_SCALE: '-1',
        HMAC_KEY: 'a'.repeat(64),
        ENCRYPTION_KEY: 'b'.repeat(64),
      }),
    ).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => loadConfig({ HMAC_KEY: 'short', ENCRYPTION_KEY: 'b'.repeat(64) })).toThrow(
      /HMAC_KEY/,
    );
  });

  test('defaults', () => {
    const config = loadConfig({ HMAC_KEY: 'a'.repeat(64), ENCRYPTION_KEY: 'b'.repeat(64) });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dashboardUrls).toEqual(['http://127.0.0.1:8080']);
    expect(config.mode).toBe('development');
    expect(config.rateLimitScale).toBe(1);
    expect(config.databaseUrl).toBeUndefined();
  });
});
