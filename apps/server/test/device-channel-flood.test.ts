import type { ServerToAppMessage } from '@keyward/contract/device';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import {
  CLOSE_FLOOD,
  FLOOD_BURST,
  FLOOD_REFILL_PER_MINUTE,
  GARBAGE_LIMIT,
  MAX_FRAME_BYTES,
} from '../src/devices/channel.ts';
import { connectedMac } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// A Mac that floods its push channel (far more messages than heartbeats, oversized frames,
// garbage) is cut off; the other Macs on the same server are not affected.

let server: TestServer;
let baseUrl: string;
beforeAll(async () => {
  server = await createTestServer();
  baseUrl = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(async () => server.close());

interface Client {
  socket: WebSocket;
  messages: ServerToAppMessage[];
  closed: Promise<{ code: number; reason: string }>;
  send(data: string | Buffer): void;
}

function open(token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl}/app-websocket`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const messages: ServerToAppMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    socket.on('open', () =>
      resolve({
        socket,
        messages,
        closed,
        send: (data) => socket.send(data, { binary: Buffer.isBuffer(data) }),
      }),
    );
    socket.on('error', reject);
  });
}

const heartbeat = JSON.stringify({ heartbeat: {} });

async function mac() {
  const parent = await server.signUpVerifiedParent();
  return connectedMac(server, parent.adminId);
}

async function eventually<T>(read: () => Promise<T> | T, isDone: (value: T) => boolean) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The well-behaved Mac still gets pushes and its heartbeat is still recorded. */
async function expectUnaffected(neighbour: Awaited<ReturnType<typeof mac>>, client: Client) {
  expect(client.socket.readyState).toBe(WebSocket.OPEN);
  await server.app.push.toComputerUsers([neighbour.computerUserId], { case: 'userUpdated' });
  await eventually(
    () => client.messages.length,
    (count) => count > 0,
  );
  expect(client.messages).toEqual([{ userUpdated: {} }]);
  server.clock.advance(1000);
  client.send(heartbeat);
  const seen = await eventually(
    () =>
      server.db
        .selectFrom('device_presence')
        .select('last_seen_at')
        .where('computer_user_id', '=', neighbour.computerUserId)
        .executeTakeFirst(),
    (row) => row?.last_seen_at === server.clock.now().toISOString(),
  );
  expect(seen?.last_seen_at).toBe(server.clock.now().toISOString());
}

describe('push channel flood control', () => {
  test('a Mac sending messages far faster than heartbeats is cut off; its neighbour is not', async () => {
    const flooder = await mac();
    const neighbour = await mac();
    const bad = await open(flooder.token);
    const good = await open(neighbour.token);

    for (let i = 0; i < FLOOD_BURST * 4; i++) bad.send(heartbeat);

    const closed = await bad.closed;
    expect(closed).toEqual({ code: CLOSE_FLOOD, reason: 'too many messages' });
    expect(server.app.deviceChannel.connectionCount()).toBe(1);
    await expectUnaffected(neighbour, good);
    good.socket.close();
  });

  test('a flood of WebSocket pings is cut off the same way', async () => {
    const flooder = await mac();
    const bad = await open(flooder.token);
    for (let i = 0; i < FLOOD_BURST * 4; i++) bad.socket.ping();
    expect((await bad.closed).code).toBe(CLOSE_FLOOD);
  });

  test('the allowance refills with time: a burst, a minute, another burst stays connected', async () => {
    const busy = await mac();
    const client = await open(busy.token);
    for (let i = 0; i < FLOOD_BURST; i++) client.send(heartbeat);
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.clock.advance(60_000);
    for (let i = 0; i < FLOOD_REFILL_PER_MINUTE; i++) client.send(heartbeat);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    client.socket.close();
  });

  test(`an oversized frame (over ${MAX_FRAME_BYTES} bytes) closes the connection with 1009`, async () => {
    const flooder = await mac();
    const neighbour = await mac();
    const bad = await open(flooder.token);
    const good = await open(neighbour.token);

    bad.send(JSON.stringify({ heartbeat: {}, padding: 'x'.repeat(MAX_FRAME_BYTES) }));

    expect((await bad.closed).code).toBe(1009);
    await expectUnaffected(neighbour, good);
    good.socket.close();
  });

  test(`garbage is ignored up to ${GARBAGE_LIMIT} frames, then the Mac is cut off`, async () => {
    const sender = await mac();
    const client = await open(sender.token);
    client.send('not json');
    client.send(Buffer.from([1, 2, 3]));
    client.send(JSON.stringify({ selfDestruct: {} }));
    client.send('{"case":');
    client.send('[]');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.socket.readyState).toBe(WebSocket.OPEN);

    client.send('still not json');

    expect(await client.closed).toEqual({ code: CLOSE_FLOOD, reason: 'too many invalid messages' });
  });
});
