import type { ServerToAppMessage } from '@keyward/contract/device';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.ts';
import { newToken } from '../src/services/tokens.ts';
import { connectedMac } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// The push channel over a real listening socket, with the `ws` client a Mac would use.

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

interface Client {
  socket: WebSocket;
  messages: ServerToAppMessage[];
  closed: Promise<{ code: number; reason: string }>;
  next(): Promise<ServerToAppMessage>;
  send(message: object): void;
}

function open(url: string, token?: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url}/app-websocket`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    const messages: ServerToAppMessage[] = [];
    const waiting: ((message: ServerToAppMessage) => void)[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ServerToAppMessage;
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else messages.push(message);
    });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    socket.on('open', () =>
      resolve({
        socket,
        messages,
        closed,
        next: () => {
          const queued = messages.shift();
          if (queued) return Promise.resolve(queued);
          return new Promise((done) => waiting.push(done));
        },
        send: (message) => socket.send(JSON.stringify(message)),
      }),
    );
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.on('error', reject);
  });
}

async function eventually<T>(read: () => Promise<T>, isDone: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function presenceOf(computerUserId: string) {
  return server.db
    .selectFrom('device_presence')
    .selectAll()
    .where('computer_user_id', '=', computerUserId)
    .executeTakeFirst();
}

async function newMac() {
  const parent = await server.signUpVerifiedParent();
  return connectedMac(server, parent.adminId);
}

describe('GET /app-websocket', () => {
  test('refuses a missing or unknown token with HTTP 401 before the upgrade', async () => {
    await expect(open(baseUrl)).rejects.toThrow('HTTP 401');
    await expect(open(baseUrl, newToken())).rejects.toThrow('HTTP 401');
    await expect(open(baseUrl, 'not-a-token')).rejects.toThrow('HTTP 401');
  });

  test('delivers pushes to the computer user’s socket, and only to it', async () => {
    const mac = await newMac();
    const other = await newMac();
    const client = await open(baseUrl, mac.token);
    const otherClient = await open(baseUrl, other.token);

    await server.app.push.toChildren([mac.childId], { case: 'userUpdated' });

    expect(await client.next()).toEqual({ userUpdated: {} });
    await server.app.push.toComputerUsers([other.computerUserId], { case: 'userUpdated' });
    expect(await otherClient.next()).toEqual({ userUpdated: {} });
    expect(client.messages).toEqual([]);
    client.socket.close();
    otherClient.socket.close();
  });

  test('a second connection replaces the first', async () => {
    const mac = await newMac();
    const first = await open(baseUrl, mac.token);
    const second = await open(baseUrl, mac.token);

    expect((await first.closed).code).toBe(4000);
    await server.app.push.toComputerUsers([mac.computerUserId], { case: 'userUpdated' });
    expect(await second.next()).toEqual({ userUpdated: {} });
    second.socket.close();
  });

  test('device messages write presence; goingOffline removes it', async () => {
    const mac = await newMac();
    const client = await open(baseUrl, mac.token);

    client.send({ currentFilterState_v2: { _0: { on: {} } } });
    const row = await eventually(
      () => presenceOf(mac.computerUserId),
      (value) => value !== undefined,
    );
    expect(row?.last_seen_at).toBe(server.clock.now().toISOString());
    expect(row?.connection_id).toEqual(expect.any(String));

    server.clock.advance(60_000);
    client.socket.ping();
    const touched = await eventually(
      () => presenceOf(mac.computerUserId),
      (value) => value?.last_seen_at === server.clock.now().toISOString(),
    );
    expect(touched?.last_seen_at).toBe(server.clock.now().toISOString());

    client.send({ goingOffline: {} });
    expect(
      await eventually(
        () => presenceOf(mac.computerUserId),
        (value) => value === undefined,
      ),
    ).toBeUndefined();
    client.socket.close();
  });

  test('userDeleted is delivered, then the socket is closed with 4999', async () => {
    const mac = await newMac();
    const client = await open(baseUrl, mac.token);

    await server.app.push.toComputerUsers([mac.computerUserId], { case: 'userDeleted' });

    expect(await client.next()).toEqual({ userDeleted: {} });
    expect((await client.closed).code).toBe(4999);
  });

  test("deleting the account closes every Mac's channel at once, not at its next message (issue 19)", async () => {
    const parent = await server.signUpVerifiedParent();
    const macs = [
      await connectedMac(server, parent.adminId),
      await connectedMac(server, parent.adminId),
    ];
    const clients = await Promise.all(macs.map((mac) => open(baseUrl, mac.token)));
    const otherFamily = await open(baseUrl, (await newMac()).token);

    const deleted = await server.call(
      'DeleteEntity_v2',
      { type: 'parent', id: parent.adminId },
      { token: parent.token },
    );
    expect(deleted.status).toBe(200);

    // no message sent by the Macs: the server closes both channels itself
    for (const client of clients) {
      expect(await client.next()).toEqual({ userDeleted: {} });
      expect((await client.closed).code).toBe(4999);
    }
    expect(otherFamily.socket.readyState).toBe(WebSocket.OPEN);
    expect(otherFamily.messages).toEqual([]);
    otherFamily.socket.close();
  });

  test('a deleted computer user’s socket is closed with 4999 on its next message', async () => {
    const mac = await newMac();
    const client = await open(baseUrl, mac.token);
    await server.db.deleteFrom('computer_users').where('id', '=', mac.computerUserId).execute();

    client.send({ heartbeat: {} });

    expect((await client.closed).code).toBe(4999);
  });

  test('connections idle for 100 s are closed', async () => {
    const mac = await newMac();
    const idle = await open(baseUrl, mac.token);
    const lively = await newMac();
    const active = await open(baseUrl, lively.token);

    server.clock.advance(60_000);
    active.send({ heartbeat: {} });
    await eventually(
      () => presenceOf(lively.computerUserId),
      (value) => value !== undefined,
    );
    server.clock.advance(40_000);

    expect(server.app.deviceChannel.closeIdleConnections()).toBeGreaterThanOrEqual(1);
    expect((await idle.closed).code).toBe(4001);
    expect(active.socket.readyState).toBe(WebSocket.OPEN);
    active.socket.close();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL?.startsWith('postgres'))(
  'across instances (PostgreSQL NOTIFY)',
  () => {
    test('a push sent by another instance reaches the socket held by this one', async () => {
      const mac = await newMac();
      const client = await open(baseUrl, mac.token);
      const otherInstance = await buildApp({
        config: server.config,
        db: server.db,
        clock: server.clock,
      });
      try {
        await otherInstance.push.toChildren([mac.childId], { case: 'userUpdated' });
        expect(await client.next()).toEqual({ userUpdated: {} });
      } finally {
        await otherInstance.close();
        client.socket.close();
      }
    });
  },
);
