import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { toDbTime } from '../src/db/values.ts';
import { precompressDirectory } from '../../web/build/precompress.ts';
import { preferredEncoding } from '../src/http/spa.ts';
import { shutDownGracefully } from '../src/serve.ts';
import { addChild, connectedMac } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Serving (build-time compressed assets, compressed API answers), the METRICS gate and graceful
// shutdown. Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).

const SCRIPT = `export function greet(name){return "Hello, " + name + "!";}\n`.repeat(200);
const HTML = `<!doctype html><html><head><title>Keyward</title></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`;

let webDist: string;
let server: TestServer;
beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'keyward-ops-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), HTML);
  writeFileSync(path.join(webDist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(path.join(webDist, 'assets', 'logo-Ab12Cd34.png'), Buffer.from([137, 80, 78, 71]));
  precompressDirectory(webDist);
  server = await createTestServer({ env: { WEB_DIST: webDist, METRICS: '1' } });
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  server.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('build-time compressed assets', () => {
  test('the build step writes a .br and a .gz copy of text files only', async () => {
    const { existsSync } = await import('node:fs');
    const assets = path.join(webDist, 'assets');
    expect(existsSync(path.join(assets, 'index-Ab12Cd34.js.br'))).toBe(true);
    expect(existsSync(path.join(assets, 'index-Ab12Cd34.js.gz'))).toBe(true);
    expect(existsSync(path.join(webDist, 'index.html.br'))).toBe(true);
    expect(existsSync(path.join(assets, 'logo-Ab12Cd34.png.br'))).toBe(false);
  });

  test.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
  ])('a hashed script asked with Accept-Encoding "%s" comes as %s', async (accept, encoding) => {
    const response = await get('/assets/index-Ab12Cd34.js', accept);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = response.rawPayload;
    const plain = encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body);
    expect(plain.toString()).toBe(SCRIPT);
    expect(body.length).toBeLessThan(SCRIPT.length / 10);
  });

  test('a client that accepts no encoding gets the plain file, still immutable', async () => {
    const response = await get('/assets/index-Ab12Cd34.js');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('index.html is compressed too, never cached, for / and for client routes', async () => {
    for (const url of ['/', '/children/123', '/login']) {
      const response = await get(url, 'gzip, deflate, br');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(HTML);
    }
    const plain = await get('/login', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(HTML);
  });

  test.each([
    [undefined, undefined],
    ['identity', undefined],
    ['*', 'br'],
    ['gzip;q=0.5, br;q=0', 'gzip'],
    ['deflate', undefined],
  ])('Accept-Encoding %s prefers %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('compressed API answers', () => {
  test('an answer of 1 KB or more is compressed when the client accepts it', async () => {
    const parent = await server.signUpVerifiedParent();
    for (let i = 0; i < 12; i++) await addChild(server, parent.adminId, { name: `Child ${i}` });
    const plain = await server.call('GetUsers', undefined, { token: parent.token });
    expect(plain.status).toBe(200);
    expect(JSON.stringify(plain.body).length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const response = await server.app.inject({
      method: 'POST',
      url: '/pairql/dashboard/GetUsers',
      headers: { 'x-admintoken': parent.token, 'accept-encoding': 'gzip, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString())).toEqual(plain.body);
  });

  test('a small answer stays plain', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ ok: true });
  });

  test('error bodies keep their contract shape when compressed or not', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/pairql/dashboard/GetUsers',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ type: 'loggedOut', id: '8df93d61' });
  });
});

describe('metrics', () => {
  test('with METRICS=1, /metrics counts requests per operation, errors by type and channels', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('GetUsers', undefined, { token: parent.token });
    await server.call('GetUsers', undefined, { token: 'not-a-token' });
    await server.call('NoSuchOperation', {});
    const response = await get('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toMatch(
      /keyward_requests_total\{namespace="dashboard",operation="GetUsers",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /keyward_requests_total\{namespace="dashboard",operation="GetUsers",status="401"\} [1-9]/,
    );
    expect(text).toMatch(/keyward_requests_total\{namespace="dashboard",operation="unknown"/);
    expect(text).not.toContain('NoSuchOperation');
    expect(text).toMatch(
      /keyward_request_duration_seconds_bucket\{le="[\d.]+",namespace="dashboard",operation="Signup"\}/,
    );
    expect(text).toMatch(/keyward_errors_total\{type="loggedOut"\} [1-9]/);
    expect(text).toMatch(/keyward_errors_total\{type="notFound"\} [1-9]/);
    expect(text).toMatch(/keyward_device_channels_open 0/);
    expect(text).toMatch(/# TYPE keyward_job_runs_total counter/);
    expect(text).toMatch(/keyward_process_resident_memory_bytes \d+/);
  });

  test('job runs are counted as the scheduler reports them and as claimed in job_runs', async () => {
    server.app.metrics.jobRun('retention', 'ok', 1.5);
    await server.db
      .insertInto('job_runs')
      .values({
        job: 'retention',
        run_key: '2026-01-02',
        started_at: toDbTime(server.clock.now()),
        finished_at: null,
      })
      .execute();
    const text = (await get('/metrics')).body;
    expect(text).toMatch(/keyward_job_runs_total\{job="retention",outcome="ok"\} 1/);
    expect(text).toMatch(/keyward_job_runs_recorded\{job="retention"\} 1/);
  });

  test('without METRICS, /metrics does not exist', async () => {
    const plain = await createTestServer();
    try {
      const response = await plain.app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ type: 'notFound' });
    } finally {
      await plain.close();
    }
  });
});

describe('graceful shutdown', () => {
  test('finishes in-flight requests, closes Mac channels with 1012, then closes the database', async () => {
    const own = await createTestServer();
    const events: string[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A request still running when the shutdown starts.
    own.app.get('/test/slow', async () => {
      events.push('slow request started');
      await released;
      events.push('slow request answered');
      return { done: true };
    });
    own.app.addHook('onClose', async () => {
      events.push('database closed');
    });
    try {
      const parent = await own.signUpVerifiedParent();
      const mac = await connectedMac(own, parent.adminId);
      const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = new WebSocket(`${address.replace(/^http/, 'ws')}/macos-app/channel`, {
        headers: { 'X-UserToken': mac.token },
      });
      await new Promise((resolve, reject) => {
        socket.on('open', resolve);
        socket.on('error', reject);
      });
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await eventually(() => own.app.deviceChannel.connectionCount() === 1);

      const slow = fetch(`${address}/test/slow`).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
      await eventually(() => events.includes('slow request started'));

      const shutdown = shutDownGracefully(own.app, 5000);
      expect(await closed).toBe(1012);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).not.toContain('database closed');
      await expect(fetch(`${address}/healthz`)).rejects.toThrow();

      release();
      expect(await slow).toEqual({ status: 200, body: { done: true } });
      expect(await shutdown).toBe(true);
      expect(events).toEqual(['slow request started', 'slow request answered', 'database closed']);
    } finally {
      release();
      await own.db.destroy().catch(() => {});
      await own.close().catch(() => {});
    }
  });

  test('a request that never ends does not hold the shutdown past the grace period', async () => {
    const own = await createTestServer();
    own.app.get('/test/forever', () => new Promise(() => {}));
    const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const hanging = fetch(`${address}/test/forever`).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    expect(await shutDownGracefully(own.app, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    own.app.server.closeAllConnections();
    await hanging;
    await own.db.destroy().catch(() => {});
    await own.close().catch(() => {});
  });
});

async function eventually(isDone: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!isDone() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(isDone()).toBe(true);
}
