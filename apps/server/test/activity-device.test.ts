import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { fromDbBool } from '../src/db/values.ts';
import { childWithMac, requestSigned, TINY_JPEG } from './activity-helpers.ts';
import { loadConfig } from '../src/config.ts';
import { deviceCall, serverWithParents } from './fixtures.ts';
import { createTestServer } from './harness.ts';

// The Mac's side of activity (server-behaviour §4.3, §7.1): CreateSignedScreenshotUpload with the
// local store's signed PUT and GET routes, and CreateKeystrokeLines.

const { server, alice } = await serverWithParents();

async function newUpload(input: Record<string, unknown> = { width: 1280, height: 800 }) {
  const mac = await childWithMac(server, alice.adminId);
  const result = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, input);
  expect(result.status).toBe(200);
  return { mac, ...(result.body as { uploadUrl: string; webUrl: string }) };
}

describe('CreateSignedScreenshotUpload', () => {
  test('the row exists as soon as the URLs are issued; the JPEG goes up and comes back', async () => {
    const { mac, uploadUrl, webUrl } = await newUpload({
      width: 1440,
      height: 900,
      filterSuspended: true,
      // the app sends a Date as seconds since 2001-01-01
      createdAt: toSwiftReferenceSeconds('2025-01-15T11:58:00Z'),
    });
    const rows = await server.db
      .selectFrom('screenshots')
      .selectAll()
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.created_at).toBe('2025-01-15T11:58:00.000Z');
    expect([row.width, row.height, fromDbBool(row.filter_suspended)]).toEqual([1440, 900, true]);
    expect(row.object_key).toMatch(
      new RegExp(`^test-screenshots/${mac.computerUserId}/1736942280--${row.id}\\.jpg$`),
    );
    expect(uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/screenshots\/test-screenshots\//);
    expect(new URL(uploadUrl).searchParams.get('expires')).toBe(
      String(Math.floor(server.clock.now().getTime() / 1000) + 90),
    );
    expect(new URL(webUrl).searchParams.get('expires')).toBe(
      String(Math.floor(server.clock.now().getTime() / 1000) + 3600),
    );

    // nothing stored before the upload
    expect((await requestSigned(server, 'GET', webUrl)).status).toBe(404);

    const put = await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG);
    expect(put.status).toBe(200);
    const stored = path.join(server.config.dataDir, 'screenshots', row.object_key);
    expect(existsSync(stored)).toBe(true);

    const get = await requestSigned(server, 'GET', webUrl);
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(get.raw, TINY_JPEG)).toBe(0);
  });

  test('created_at defaults to now', async () => {
    const { mac } = await newUpload();
    const row = await server.db
      .selectFrom('screenshots')
      .select(['created_at', 'filter_suspended'])
      .where('computer_user_id', '=', mac.computerUserId)
      .executeTakeFirstOrThrow();
    expect(row.created_at).toBe(server.clock.now().toISOString());
    expect(fromDbBool(row.filter_suspended)).toBe(false);
  });

  test.each([
    ['no width', { height: 800 }],
    ['zero height', { width: 10, height: 0 }],
    ['fractional width', { width: 10.5, height: 10 }],
    ['not a date', { width: 10, height: 10, createdAt: 'today' }],
    // an ISO string is not what the app's JSONEncoder sends for a Date
    ['an ISO date string', { width: 10, height: 10, createdAt: '2025-01-15T11:58:00Z' }],
    ['a width over 100,000 px', { width: 3_000_000_000, height: 10 }],
  ])('bad input (%s) is a 400 with a message', async (_name, input) => {
    const mac = await childWithMac(server, alice.adminId);
    const result = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, input);
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toEqual(expect.any(String));
  });

  test('an unknown Mac token is refused', async () => {
    const result = await deviceCall(
      server,
      'CreateSignedScreenshotUpload',
      '1e6e8a8e-3a44-4c1f-9a3b-0d4f7f1e2a11',
      { width: 10, height: 10 },
    );
    expect(result.status).toBe(401);
    expect(result.body.appTag).toBe('userTokenNotFound');
  });
});

describe('the local store’s signed routes', () => {
  test('the upload URL stops working after 90 seconds', async () => {
    const { uploadUrl } = await newUpload();
    server.clock.advance(91_000);
    const put = await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG);
    expect(put.status).toBe(401);
    expect(put.json).toMatchObject({ id: '3d81b6e4', type: 'unauthorized' });
  });

  test('the read URL works for an hour, then stops', async () => {
    const { uploadUrl, webUrl } = await newUpload();
    expect((await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG)).status).toBe(200);
    server.clock.advance(59 * 60_000);
    expect((await requestSigned(server, 'GET', webUrl)).status).toBe(200);
    server.clock.advance(2 * 60_000);
    const expired = await requestSigned(server, 'GET', webUrl);
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({
      type: 'unauthorized',
      userMessage: 'This image link has expired. Reload the page to see the image.',
    });
  });

  test('tampered signatures, expiries, keys and methods are refused', async () => {
    const { uploadUrl, webUrl } = await newUpload();
    expect((await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG)).status).toBe(200);
    const tamper = (url: string, change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return copy.toString();
    };
    const signature = new URL(webUrl).searchParams.get('signature')!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const cases = [
      tamper(webUrl, (u) => u.searchParams.set('signature', flipped)),
      tamper(webUrl, (u) => u.searchParams.set('signature', 'abc')),
      tamper(webUrl, (u) => u.searchParams.delete('signature')),
      tamper(webUrl, (u) =>
        u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      ),
      // the PUT signature does not open a GET
      tamper(webUrl, (u) =>
        u.searchParams.set('signature', new URL(uploadUrl).searchParams.get('signature')!),
      ),
    ];
    for (const url of cases) {
      const result = await requestSigned(server, 'GET', url);
      expect(result.status, url).toBe(401);
      expect(result.json, url).toMatchObject({ id: 'a6c2f0b8', type: 'unauthorized' });
    }
    // another screenshot's key under the same signature
    const other = await newUpload();
    const swapped = `${new URL(other.webUrl).origin}${new URL(other.webUrl).pathname}${new URL(webUrl).search}`;
    expect((await requestSigned(server, 'GET', swapped)).status).toBe(401);
  });

  test('paths outside the object-key shape never reach a file', async () => {
    // a file the traversal would aim at, inside the data directory
    writeFileSync(path.join(server.config.dataDir, 'screenshots-secret.txt'), 'TOP SECRET');
    for (const url of [
      '/screenshots/..%2fscreenshots-secret.txt?expires=9999999999&signature=00',
      '/screenshots/test-screenshots/..%2f..%2f..%2fscreenshots-secret.txt?expires=9999999999&signature=00',
      '/screenshots/keyward.sqlite?expires=9999999999&signature=00',
    ]) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ type: 'notFound', entityName: 'Screenshot' });
    }
    // `..` written plainly is resolved by the router before any route sees it: never the file
    for (const url of [
      '/screenshots/../screenshots-secret.txt',
      '/screenshots/%2e%2e/screenshots-secret.txt',
    ]) {
      const plain = await server.app.inject({ method: 'GET', url });
      expect(plain.body, url).not.toContain('TOP SECRET');
    }
  });

  test('only JPEG bodies up to 10 MB are accepted', async () => {
    const { uploadUrl, mac } = await newUpload();
    const png = await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG, 'image/png');
    expect(png.status).toBe(400);
    expect(png.json).toMatchObject({
      type: 'badRequest',
      userMessage: 'Only JPEG images can be uploaded.',
    });

    const notJpeg = await requestSigned(server, 'PUT', uploadUrl, Buffer.from('hello world'));
    expect(notJpeg.status).toBe(400);

    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
    TINY_JPEG.copy(big);
    const tooBig = await requestSigned(server, 'PUT', uploadUrl, big);
    expect(tooBig.status).toBe(400);
    expect(tooBig.json).toMatchObject({
      type: 'badRequest',
      userMessage: 'The image is too large (at most 10 MB).',
    });

    const dir = path.join(
      server.config.dataDir,
      'screenshots',
      'test-screenshots',
      mac.computerUserId,
    );
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);

    const exactly10Mb = Buffer.alloc(10 * 1024 * 1024, 0);
    TINY_JPEG.copy(exactly10Mb);
    expect((await requestSigned(server, 'PUT', uploadUrl, exactly10Mb)).status).toBe(200);
  });
});

describe('CreateKeystrokeLines', () => {
  test('stores every line with its time; NUL characters are replaced by U+FFFD', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const result = await server.call('CreateKeystrokeLines', undefined, {
      namespace: 'macos-app',
      token: mac.token,
      rawBody: JSON.stringify([
        {
          appName: 'Notes',
          line: 'hello\u0000world',
          time: toSwiftReferenceSeconds('2025-01-15T11:00:00Z'),
        },
        {
          appName: 'Safari',
          line: 'cats',
          filterSuspended: true,
          time: toSwiftReferenceSeconds('2025-01-15T11:01:00.250Z'),
        },
      ]),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    const rows = await server.db
      .selectFrom('keystroke_lines')
      .selectAll()
      .where('computer_user_id', '=', mac.computerUserId)
      .orderBy('created_at')
      .execute();
    expect(
      rows.map((row) => [row.app_name, row.line, fromDbBool(row.filter_suspended), row.created_at]),
    ).toEqual([
      ['Notes', 'hello\uFFFDworld', false, '2025-01-15T11:00:00.000Z'],
      ['Safari', 'cats', true, '2025-01-15T11:01:00.250Z'],
    ]);
  });

  test('other operations still refuse a NUL character', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const result = await server.call('CreateSuspendFilterRequest_v2', undefined, {
      namespace: 'macos-app',
      token: mac.token,
      rawBody: JSON.stringify({ duration: 300, comment: 'please\u0000' }),
    });
    expect(result.status).toBe(400);
    expect(result.body.id).toBe('fd0f59dc');
  });

  test('a thousand lines in one call are stored; more are refused', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        appName: `App ${i % 20}`,
        line: `line ${i}`,
        time: toSwiftReferenceSeconds(new Date(Date.UTC(2025, 0, 15, 10, 0, i))),
      }));
    expect((await deviceCall(server, 'CreateKeystrokeLines', mac.token, lines(1000))).status).toBe(
      200,
    );
    const tooMany = await deviceCall(server, 'CreateKeystrokeLines', mac.token, lines(1001));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.userMessage).toEqual(expect.any(String));
    const count = await server.db
      .selectFrom('keystroke_lines')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('computer_user_id', '=', mac.computerUserId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1000);
  });

  test.each([
    [
      'a line over 10,000 characters',
      [{ appName: 'Notes', line: 'x'.repeat(10_001), time: 758_631_600 }],
    ],
    [
      'an app name over 255 characters',
      [{ appName: 'A'.repeat(256), line: 'x', time: 758_631_600 }],
    ],
    ['no time', [{ appName: 'Notes', line: 'x' }]],
    ['an ISO time string', [{ appName: 'Notes', line: 'x', time: '2025-01-15T11:00:00Z' }]],
    ['not an array', { appName: 'Notes', line: 'x', time: 758_631_600 }],
  ])('%s is a 400 with a message', async (_name, input) => {
    const mac = await childWithMac(server, alice.adminId);
    const result = await deviceCall(server, 'CreateKeystrokeLines', mac.token, input);
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toEqual(expect.any(String));
  });
});

describe('SCREENSHOT_READ_URL_SECONDS', () => {
  test('shortens the read URLs (e.g. for end-to-end tests); bad values stop start-up', async () => {
    const short = await createTestServer({ env: { SCREENSHOT_READ_URL_SECONDS: '30' } });
    try {
      const parent = await short.signUpVerifiedParent();
      const mac = await childWithMac(short, parent.adminId);
      const issued = await deviceCall(short, 'CreateSignedScreenshotUpload', mac.token, {
        width: 10,
        height: 10,
      });
      expect((await requestSigned(short, 'PUT', issued.body.uploadUrl, TINY_JPEG)).status).toBe(
        200,
      );
      expect(new URL(issued.body.webUrl).searchParams.get('expires')).toBe(
        String(Math.floor(short.clock.now().getTime() / 1000) + 30),
      );
      short.clock.advance(29_000);
      expect((await requestSigned(short, 'GET', issued.body.webUrl)).status).toBe(200);
      short.clock.advance(2_000);
      expect((await requestSigned(short, 'GET', issued.body.webUrl)).status).toBe(401);
    } finally {
      await short.close();
    }
    for (const value of ['0', 'soon', '999999999']) {
      expect(() =>
        loadConfig({
          SCREENSHOT_READ_URL_SECONDS: value,
          HMAC_KEY: 'a'.repeat(64),
          ENCRYPTION_KEY: 'b'.repeat(64),
        }),
      ).toThrow(/SCREENSHOT_READ_URL_SECONDS/);
    }
  });
});
