import { createPublicKey, verify } from 'node:crypto';
import { BrowserChannelMessage, BrowserCheckInOutput } from '@keyward/contract/browser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { MINUTE } from '../src/db/values.ts';
import { isUninstallKey } from '../src/devices/browsers.ts';
import { zipExtension } from '../src/http/browser-filter.ts';
import { crxIdOf, extensionIdOf } from '../src/services/crx.ts';
import {
  AFTER_SCHOOL,
  addChild,
  addConnectionCode,
  addKey,
  addKeychain,
  assign,
  createKey,
  securityEvents,
  website,
} from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';
import { readZip } from './zip-reader.ts';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Issue 22: Keyward for Chrome's device API (operations/browser/, http/browser-filter.ts), through
// app.inject() on a real database, and its push channel over a real socket.

let server: TestServer;
let baseUrl: string;
beforeAll(async () => {
  server = await createTestServer();
  baseUrl = await listen(server.app);
});
afterAll(async () => server.close());

async function listen(app: FastifyInstance) {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

const browserCall = (op: string, token: string | undefined, input?: unknown) =>
  server.call(op, input, { namespace: 'browser-filter', ...(token ? { token } : {}) });

const CONNECT = {
  browser: 'Chrome',
  browserVersion: '142.0.7444.59',
  platform: 'windows',
  extensionVersion: '1.0.0',
};

async function connectedBrowser(options: { childName?: string } = {}) {
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId, { name: options.childName ?? 'Ada' });
  const code = await addConnectionCode(server, childId);
  const result = await browserCall('ConnectBrowser', undefined, { code, ...CONNECT });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return {
    parent,
    childId,
    ...(result.body as { token: string; deviceId: string; uninstallUrl: string }),
  };
}

const checkIn = (token: string, incognitoAllowed = true) =>
  browserCall('CheckIn', token, {
    extensionVersion: '1.0.0',
    browserVersion: '142.0.7444.59',
    incognitoAllowed,
  });

describe('ConnectBrowser', () => {
  test('a connection code enrols the browser as a computer of kind browser of that child', async () => {
    const { childId, deviceId, token, uninstallUrl } = await connectedBrowser({ childName: 'Lin' });
    const row = await server.db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as m', 'm.id', 'cu.computer_id')
      .select([
        'cu.child_id',
        'cu.full_username',
        'm.kind',
        'm.platform',
        'm.browser',
        'm.filter_version',
      ])
      .where('cu.id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      child_id: childId,
      full_username: 'Chrome on Windows',
      kind: 'browser',
      platform: 'windows',
      browser: 'Chrome',
      filter_version: '1.0.0',
    });
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const link = new URL(uninstallUrl);
    expect(link.pathname).toBe('/browser-filter/uninstalled');
    expect(link.searchParams.get('device')).toBe(deviceId);
    expect(isUninstallKey(server.config, deviceId, String(link.searchParams.get('key')))).toBe(
      true,
    );
  });

  test('a wrong code is refused in words a child understands, and the code is spent once', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const code = await addConnectionCode(server, childId);
    const wrong = await browserCall('ConnectBrowser', undefined, {
      ...CONNECT,
      code: code === 999_999 ? 100_000 : code + 1,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.userMessage).toMatch(/code did not work/);
    expect((await browserCall('ConnectBrowser', undefined, { ...CONNECT, code })).status).toBe(200);
    expect((await browserCall('ConnectBrowser', undefined, { ...CONNECT, code })).status).toBe(401);
  });

  test('a bad platform or version is a 400 naming the field', async () => {
    const result = await browserCall('ConnectBrowser', undefined, {
      ...CONNECT,
      code: 123_456,
      platform: 'amiga',
    });
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.body)).toMatch(/platform/);
  });
});

describe('CheckIn', () => {
  test('answers the keychains with schedules, names and expirations, the monitoring, downtime', async () => {
    const { parent, childId, token, deviceId } = await connectedBrowser();
    await server.db
      .updateTable('children')
      .set({
        screenshots_enabled: 1 as never,
        screenshots_frequency: 120,
        screenshots_resolution: 900,
        downtime: JSON.stringify({ start: { hour: 21, minute: 0 }, end: { hour: 6, minute: 30 } }),
      })
      .where('id', '=', childId)
      .execute();
    const school = await addKeychain(server, parent.adminId, { name: 'School' });
    const games = await addKeychain(server, parent.adminId, { name: 'Games' });
    const forever = await addKey(server, school, website('khanacademy.org'));
    const expiresAt = new Date(server.clock.now().getTime() + 30 * MINUTE);
    const expiring = await addKey(server, games, website('lichess.org'), expiresAt);
    await addKey(
      server,
      games,
      website('old.example'),
      new Date(server.clock.now().getTime() - MINUTE),
    );
    await assign(server, childId, school);
    server.clock.advance(1000); // keychains come in the order they were given
    await assign(server, childId, games, AFTER_SCHOOL);

    const result = await checkIn(token);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const body = BrowserCheckInOutput.parse(result.body);
    expect(body.deviceId).toBe(deviceId);
    expect(body.childName).toBe('Ada');
    expect(body.keychains).toEqual([
      { id: school, name: 'School', keys: [{ id: forever, key: website('khanacademy.org') }] },
      {
        id: games,
        name: 'Games',
        schedule: AFTER_SCHOOL,
        keys: [
          {
            id: expiring,
            key: website('lichess.org'),
            expiration: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          },
        ],
      },
    ]);
    expect(body.monitoring).toEqual({
      screenshots: { enabled: true, everySeconds: 120, width: 900 },
      keylogging: false,
    });
    expect(body.downtime).toEqual({ start: { hour: 21, minute: 0 }, end: { hour: 6, minute: 30 } });
    expect(body.suspension).toBeUndefined();
  });

  test('a Mac token, an unknown token and no token are refused', async () => {
    for (const token of [undefined, '00000000-0000-4000-8000-000000000000']) {
      const result = await checkIn(token as string);
      expect(result.status).toBe(401);
    }
    const { token } = await connectedBrowser();
    // the browser's token is not a Mac's on the Mac API's browser-only operations, and vice versa
    const asMac = await server.call(
      'CheckIn',
      { extensionVersion: '1.0.0' },
      {
        namespace: 'macos-app',
        token,
      },
    );
    expect(asMac.status).not.toBe(200);
  });

  test('a browser checking in in a loop is refused with 429 past its budget (30 a minute)', async () => {
    // budgets at their real size (the shared test server multiplies them by 100)
    const real = await createTestServer({ env: { RATE_LIMIT_SCALE: '1' } });
    try {
      const parent = await real.signUpVerifiedParent();
      const childId = await addChild(real, parent.adminId);
      const code = await addConnectionCode(real, childId);
      const connected = await real.call(
        'ConnectBrowser',
        { code, ...CONNECT },
        { namespace: 'browser-filter' },
      );
      const call = () =>
        real.call(
          'CheckIn',
          { extensionVersion: '1.0.0', browserVersion: '142.0.7444.59', incognitoAllowed: true },
          { namespace: 'browser-filter', token: connected.body.token },
        );
      const answers = await Promise.all(Array.from({ length: 35 }, call));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(30);
      expect(statuses.filter((status) => status === 429)).toHaveLength(5);
      real.clock.advance(61_000);
      expect((await call()).status).toBe(200);
    } finally {
      await real.close();
    }
  });

  test('incognito not allowed is a security event, recorded once while nothing changes', async () => {
    const { parent, token, deviceId } = await connectedBrowser();
    await checkIn(token, false);
    await checkIn(token, false);
    const events = await securityEvents(server, parent.adminId, 'browserIncognitoNotAllowed');
    expect(events).toHaveLength(1);
    expect(events[0]?.computer_user_id).toBe(deviceId);
  });
});

describe('requests from the block page', () => {
  test('an unlock request is the parent’s to decide; its status follows the decision', async () => {
    const { parent, token } = await connectedBrowser();
    const created = await browserCall('CreateUnlockRequests', token, {
      urls: ['https://www.wikipedia.org/wiki/Cat', 'https://upload.wikimedia.org/a.png'],
      comment: 'for homework',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.map((r: { status: string }) => r.status)).toEqual(['pending', 'pending']);
    const [first] = created.body as { id: string; url: string }[];
    expect(first?.url).toBe('https://www.wikipedia.org/wiki/Cat');

    // the same page asked again is the same request
    const again = await browserCall('CreateUnlockRequests', token, {
      urls: ['https://www.wikipedia.org/wiki/Cat'],
    });
    expect(again.body[0].id).toBe(first?.id);

    // the parent sees it as a website asked for in Chrome
    const seen = await server.call('GetUnlockRequest', first?.id, { token: parent.token });
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body).toMatchObject({
      appBundleId: 'com.google.Chrome',
      domain: 'www.wikipedia.org',
      requestComment: 'for homework',
    });

    const decided = await server.call(
      'UpdateUnlockRequest',
      { id: first?.id, status: 'rejected', responseComment: 'Not now' },
      { token: parent.token },
    );
    expect(decided.status).toBe(200);
    const status = await browserCall('GetUnlockRequests', token, { ids: [first?.id] });
    expect(status.body).toEqual([
      expect.objectContaining({ id: first?.id, status: 'rejected', responseComment: 'Not now' }),
    ]);
  });

  test('another browser’s request ids are not answered', async () => {
    const one = await connectedBrowser();
    const other = await connectedBrowser();
    const created = await browserCall('CreateUnlockRequests', one.token, {
      urls: ['https://example.com/'],
    });
    const foreign = await browserCall('GetUnlockRequests', other.token, {
      ids: [created.body[0].id],
    });
    expect(foreign.body).toEqual([]);
  });

  test('a granted suspension is in the check-in until it ends', async () => {
    const { parent, token } = await connectedBrowser();
    const asked = await browserCall('CreateSuspensionRequest', token, {
      seconds: 900,
      comment: 'film',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body).toMatchObject({ status: 'pending', requestedSeconds: 900 });
    const decided = await server.call(
      'DecideFilterSuspensionRequest',
      { id: asked.body.id, decision: { case: 'accepted', durationInSeconds: 600 } },
      { token: parent.token },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const status = await browserCall('GetSuspensionRequest', token, { id: asked.body.id });
    expect(status.body.status).toBe('accepted');
    // issue 32: the decision no longer overwrites what the child asked
    expect(status.body.requestedSeconds).toBe(900);
    const read = await server.call('GetSuspendFilterRequest', asked.body.id, {
      token: parent.token,
    });
    expect(read.body).toMatchObject({
      requestedDurationInSeconds: 900,
      grantedDurationInSeconds: 600,
    });
    const endsAt = Date.parse(status.body.suspension.endsAt);
    expect(endsAt - server.clock.now().getTime()).toBeGreaterThan(599_000);
    expect((await checkIn(token)).body.suspension?.endsAt).toBe(status.body.suspension.endsAt);

    server.clock.advance(601_000);
    expect((await checkIn(token)).body.suspension).toBeUndefined();
  });

  test('the parent sees the browser as a browser, with its requests, and decides from the inbox', async () => {
    const { parent, childId, deviceId, token } = await connectedBrowser({ childName: 'Noor' });
    const asked = await browserCall('CreateSuspensionRequest', token, { seconds: 600 });
    await browserCall('CreateUnlockRequests', token, { urls: ['https://example.org/'] });

    const devices = await server.call('GetFamilyDevices', undefined, { token: parent.token });
    expect(devices.status, JSON.stringify(devices.body)).toBe(200);
    expect(devices.body).toEqual([
      expect.objectContaining({
        kind: 'browser',
        id: deviceId,
        childId,
        childName: 'Noor',
        name: 'Chrome on Windows',
        pendingRequests: 2,
      }),
    ]);
    expect(devices.body[0].path).toMatch(/^\/computers\/[0-9a-f-]{36}$/);

    const inbox = await server.call('GetInbox', undefined, { token: parent.token });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(200);
    expect(
      inbox.body.items.map((item: { case: string; device: unknown }) => [item.case, item.device]),
    ).toEqual(
      expect.arrayContaining([
        ['suspension', { kind: 'browser', id: deviceId, name: 'Chrome on Windows' }],
        ['unlock', { kind: 'browser', id: deviceId, name: 'Chrome on Windows' }],
      ]),
    );

    const read = await server.call('GetSuspendFilterRequest', asked.body.id, {
      token: parent.token,
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const decided = await server.call(
      'DecideFilterSuspensionRequest',
      { id: asked.body.id, decision: { case: 'rejected' } },
      { token: parent.token },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const after = await server.call('GetInbox', undefined, { token: parent.token });
    expect(after.body.items.map((item: { case: string }) => item.case)).toEqual(['unlock']);
  });
});

describe('activity', () => {
  test('a screenshot upload URL and typed lines land in the child’s activity', async () => {
    const { token, deviceId } = await connectedBrowser();
    const upload = await browserCall('CreateScreenshotUpload', token, {
      width: 800,
      height: 500,
      takenAt: server.clock
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      filterSuspended: false,
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body.uploadUrl).toMatch(/^http/);

    const typed = await browserCall('CreateTypedLines', token, [
      {
        site: 'docs.google.com',
        line: 'my essay about cats',
        typedAt: server.clock
          .now()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        filterSuspended: false,
      },
    ]);
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    const lines = await server.db
      .selectFrom('keystroke_lines')
      .select(['app_name', 'line'])
      .where('computer_user_id', '=', deviceId)
      .execute();
    expect(lines).toEqual([{ app_name: 'docs.google.com', line: 'my essay about cats' }]);
  });
});

describe('the uninstall link', () => {
  test('records that the extension was removed, once; a forged key does nothing', async () => {
    const { parent, uninstallUrl } = await connectedBrowser();
    const link = new URL(uninstallUrl);
    const forged = await server.app.inject({
      method: 'GET',
      url: `${link.pathname}?device=${link.searchParams.get('device')}&key=forged`,
    });
    expect(forged.statusCode).toBe(404);
    expect(await securityEvents(server, parent.adminId, 'browserExtensionRemoved')).toHaveLength(0);

    const page = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your parent has been told');
    await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(await securityEvents(server, parent.adminId, 'browserExtensionRemoved')).toHaveLength(1);
  });
});

describe('the download', () => {
  test('the zip carries the extension with this server’s address in config.json', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'keyward-ext-'));
    try {
      mkdirSync(path.join(folder, 'icons'));
      writeFileSync(path.join(folder, 'manifest.json'), '{"manifest_version":3}');
      writeFileSync(path.join(folder, 'config.json'), '{"serverUrl":null}');
      writeFileSync(path.join(folder, 'icons', 'a.png'), 'png');
      const zip = await zipExtension(folder, { serverUrl: 'https://keyward.example' });
      const entries = readZip(zip);
      expect([...entries.keys()].sort()).toEqual(['config.json', 'icons/a.png', 'manifest.json']);
      expect(JSON.parse(String(entries.get('config.json')))).toEqual({
        serverUrl: 'https://keyward.example',
      });
      expect(String(entries.get('icons/a.png'))).toBe('png');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the push channel', () => {
  function open(): Promise<{ socket: WebSocket; frames: unknown[]; closed: Promise<number> }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${baseUrl}/browser-filter/channel`);
      const frames: unknown[] = [];
      const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
      socket.on('message', (data) => frames.push(JSON.parse(String(data))));
      socket.on('open', () => resolve({ socket, frames, closed }));
      socket.on('error', reject);
    });
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  test('after hello, a parent’s change is pushed as rulesChanged; a decision with its request', async () => {
    const { parent, childId, token } = await connectedBrowser();
    const client = await open();
    client.socket.send(JSON.stringify({ type: 'hello', token }));
    await until(() => client.frames.length > 0);
    expect(BrowserChannelMessage.parse(client.frames[0])).toEqual({ type: 'welcome' });

    // the parent adds a key to a keychain the child holds
    const keychain = await addKeychain(server, parent.adminId);
    await assign(server, childId, keychain);
    await createKey(server, parent, keychain, website('wikipedia.org'));
    await until(() => client.frames.some((f) => (f as { type: string }).type === 'rulesChanged'));

    const created = await browserCall('CreateUnlockRequests', token, {
      urls: ['https://a.example/'],
    });
    await server.call(
      'UpdateUnlockRequest',
      { id: created.body[0].id, status: 'accepted' },
      { token: parent.token },
    );
    await until(() =>
      client.frames.some((f) => (f as { type: string }).type === 'unlockRequestDecided'),
    );
    expect(
      client.frames.find((f) => (f as { type: string }).type === 'unlockRequestDecided'),
    ).toEqual({
      type: 'unlockRequestDecided',
      request: expect.objectContaining({ id: created.body[0].id, status: 'accepted' }),
    });
    client.socket.close();
  });

  // issue 32: a connected Chrome was always "Offline": its presence was fresh, its state never set
  test('the filter state on its pings is the browser’s live status on the dashboard', async () => {
    const { parent, childId, token } = await connectedBrowser({ childName: 'Bo' });
    const statusOfChild = async () => {
      const devices = await server.call('GetDevices', undefined, { token: parent.token });
      const users = (devices.body as { users: { id: string; status?: unknown }[] }[]).flatMap(
        (device) => device.users,
      );
      return users.find((user) => user.id === childId)?.status;
    };
    const client = await open();
    client.socket.send(JSON.stringify({ type: 'hello', token }));
    await until(() => client.frames.length > 0);
    expect(await statusOfChild()).toEqual({ case: 'offline' }); // present, no state yet

    client.socket.send(JSON.stringify({ type: 'ping', state: { case: 'on' } }));
    let status: unknown;
    for (let i = 0; i < 100; i++) {
      status = await statusOfChild();
      if ((status as { case: string }).case !== 'offline') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toEqual({ case: 'filterOn' });

    const resuming = new Date(server.clock.now().getTime() + 10 * MINUTE)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    client.socket.send(JSON.stringify({ type: 'ping', state: { case: 'suspended', resuming } }));
    for (let i = 0; i < 100; i++) {
      status = await statusOfChild();
      if ((status as { case: string }).case === 'filterSuspended') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toEqual({ case: 'filterSuspended', resuming });
    // a bare ping keeps the state
    client.socket.send(JSON.stringify({ type: 'ping' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(await statusOfChild()).toEqual({ case: 'filterSuspended', resuming });
    client.socket.close();
  });

  test('one WebSocket upgrade listener for the whole server (no ERR_HTTP_SOCKET_ASSIGNED)', () => {
    // two registrations of the plugin routed every upgrade twice: the second failed and was logged
    expect(server.app.server.listenerCount('upgrade')).toBe(1);
  });

  test('a frame over 1 KiB closes the browser channel with 1009', async () => {
    const { token } = await connectedBrowser();
    const client = await open();
    client.socket.send(JSON.stringify({ type: 'hello', token }));
    await until(() => client.frames.length > 0);
    client.socket.send(JSON.stringify({ type: 'ping', padding: 'x'.repeat(1100) }));
    expect(await client.closed).toBe(1009);
  });

  test('a first frame that is not a valid hello closes the socket with 4999', async () => {
    const client = await open();
    client.socket.send(
      JSON.stringify({ type: 'hello', token: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(await client.closed).toBe(4999);
    const other = await open();
    other.socket.send('{"type":"ping"}');
    expect(await other.closed).toBe(4999);
  });
});

describe('the signed extension for an install by policy', () => {
  test('the CRX is Chrome’s format, signed with the server’s key; the update manifest names it', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'keyward-ext-'));
    const policyServer = await createTestServer({ env: { BROWSER_FILTER_DIST: folder } });
    try {
      writeFileSync(path.join(folder, 'manifest.json'), '{"manifest_version":3,"version":"1.2.3"}');
      writeFileSync(path.join(folder, 'config.json'), '{"serverUrl":null}');
      const crx = await policyServer.app.inject({
        method: 'GET',
        url: '/downloads/keyward-chrome.crx',
      });
      expect(crx.statusCode).toBe(200);
      expect(crx.headers['content-type']).toBe('application/x-chrome-extension');
      const bytes = crx.rawPayload;
      expect(bytes.subarray(0, 4).toString()).toBe('Cr24');
      expect(bytes.readUInt32LE(4)).toBe(3);
      const headerLength = bytes.readUInt32LE(8);
      const header = bytes.subarray(12, 12 + headerLength);
      const zip = bytes.subarray(12 + headerLength);
      // the zip is the download's, with this server's address
      const entries = readZip(Buffer.from(zip));
      expect(JSON.parse(String(entries.get('config.json')))).toEqual({
        serverUrl: policyServer.config.publicUrl,
      });

      // the header: field 2 {1: public key, 2: signature}, field 10000 {1: crx id}
      const fields = protobufFields(header);
      const proof = protobufFields(fields.get(2) as Buffer);
      const signedHeaderData = fields.get(10000) as Buffer;
      const publicKey = createPublicKey({
        key: proof.get(1) as Buffer,
        format: 'der',
        type: 'spki',
      });
      const crxId = protobufFields(signedHeaderData).get(1) as Buffer;
      expect(crxId).toEqual(crxIdOf(publicKey));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(signedHeaderData.length);
      const signed = Buffer.concat([
        Buffer.from('CRX3 SignedData\x00', 'binary'),
        length,
        signedHeaderData,
        zip,
      ]);
      expect(verify('sha256', signed, publicKey, proof.get(2) as Buffer)).toBe(true);

      const id = extensionIdOf(publicKey);
      expect(id).toMatch(/^[a-p]{32}$/);
      const updates = await policyServer.app.inject({
        method: 'GET',
        url: '/downloads/keyward-chrome-updates.xml',
      });
      expect(updates.statusCode).toBe(200);
      expect(updates.body).toContain(`<app appid='${id}'>`);
      expect(updates.body).toContain(
        `codebase='${policyServer.config.publicUrl}/downloads/keyward-chrome.crx' version='1.2.3'`,
      );
      // the same key (and id) after a restart on the same data directory; the guide names it
      const guide = await policyServer.app.inject({ method: 'GET', url: '/getting-started' });
      expect(guide.body).toContain(
        `${id};${policyServer.config.publicUrl}/downloads/keyward-chrome-updates.xml`,
      );
    } finally {
      await policyServer.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('without a build, the downloads say how to build it', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'keyward-ext-'));
    const bare = await createTestServer({ env: { BROWSER_FILTER_DIST: folder } });
    try {
      for (const url of ['/downloads/keyward-chrome.zip', '/downloads/keyward-chrome.crx']) {
        const response = await bare.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body).toContain('npm run build');
      }
    } finally {
      await bare.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** The length-delimited fields of a protobuf message, by field number (the last one wins). */
function protobufFields(message: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 1;
    for (;;) {
      const byte = message[at++] as number;
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) return value;
      shift *= 128;
    }
  };
  while (at < message.length) {
    const tag = varint();
    expect(tag % 8).toBe(2);
    const length = varint();
    fields.set(Math.floor(tag / 8), message.subarray(at, at + length));
    at += length;
  }
  return fields;
}
