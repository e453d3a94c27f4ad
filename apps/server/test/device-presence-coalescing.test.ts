import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { PRESENCE_FLUSH_MS } from '../src/devices/channel.ts';
import { fromDbJson } from '../src/db/values.ts';
import { computerUserStatuses } from '../src/devices/status.ts';
import { connectedMac } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Heartbeats on the push channel are coalesced: noted with their own time, written together at
// most PRESENCE_FLUSH_MS later in one transaction. The 100-second offline rule still holds, and a
// filter state or goingOffline is never overwritten by an older heartbeat.

let server: TestServer;
let baseUrl: string;
beforeAll(async () => {
  server = await createTestServer();
  baseUrl = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(async () => server.close());

function open(token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl}/app-websocket`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    socket.on('open', () => resolve(socket));
    socket.on('error', reject);
  });
}

async function eventually(isDone: () => boolean | Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await isDone()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(await isDone()).toBe(true);
}

const presence = (ids: string[]) =>
  server.db
    .selectFrom('device_presence')
    .select(['computer_user_id', 'last_seen_at', 'filter_state'])
    .where('computer_user_id', 'in', ids)
    .execute();

/** The live status the dashboard shows for this Mac (server-behaviour §4.4–4.5). */
async function statusCase(computerUserId: string) {
  const statuses = await computerUserStatuses(server.db, [computerUserId], server.clock.now());
  return statuses.get(computerUserId)?.case;
}

/** Every heartbeat reached the server: noted, or already written by the timer with `at`. */
async function noted(ids: string[], at: string) {
  await eventually(async () => {
    const written = (await presence(ids)).filter((row) => row.last_seen_at === at).length;
    return server.app.deviceChannel.pendingPresence() + written >= ids.length;
  });
}

async function macs(count: number) {
  const parent = await server.signUpVerifiedParent();
  const list = [];
  for (let i = 0; i < count; i++) list.push(await connectedMac(server, parent.adminId));
  return list;
}

describe('coalesced heartbeats', () => {
  test('many heartbeats are written together, each with its own time, not the time of the write', async () => {
    const group = await macs(8);
    const sockets = await Promise.all(group.map((mac) => open(mac.token)));
    const heardAt = server.clock.now().toISOString();
    for (const socket of sockets) socket.send(JSON.stringify({ heartbeat: {} }));
    await noted(
      group.map((mac) => mac.computerUserId),
      heardAt,
    );

    // The write happens later (here 30 s later by the server's clock): the time stays the heartbeat's.
    server.clock.advance(30_000);
    await server.app.deviceChannel.flushPresence();
    const rows = await presence(group.map((mac) => mac.computerUserId));
    expect(rows).toHaveLength(8);
    for (const row of rows) expect(row.last_seen_at).toBe(heardAt);
    expect(server.app.deviceChannel.pendingPresence()).toBe(0);
    for (const socket of sockets) socket.close();
  });

  test(`a heartbeat is written within ${PRESENCE_FLUSH_MS} ms without being asked`, async () => {
    const [mac] = await macs(1);
    const socket = await open(mac!.token);
    server.clock.advance(1000);
    socket.send(JSON.stringify({ heartbeat: {} }));
    const started = Date.now();
    await eventually(async () => (await presence([mac!.computerUserId])).length === 1);
    expect(Date.now() - started).toBeLessThan(PRESENCE_FLUSH_MS + 1000);
    expect((await presence([mac!.computerUserId]))[0]?.last_seen_at).toBe(
      server.clock.now().toISOString(),
    );
    socket.close();
  });

  test('a heartbeat keeps the filter state reported before it', async () => {
    const [mac] = await macs(1);
    const socket = await open(mac!.token);
    socket.send(JSON.stringify({ currentFilterState_v2: { _0: { on: {} } } }));
    await eventually(async () => (await presence([mac!.computerUserId])).length === 1);
    server.clock.advance(90_000);
    socket.send(JSON.stringify({ heartbeat: {} }));
    await noted([mac!.computerUserId], server.clock.now().toISOString());
    await server.app.deviceChannel.flushPresence();
    const [row] = await presence([mac!.computerUserId]);
    expect(row?.last_seen_at).toBe(server.clock.now().toISOString());
    expect(fromDbJson(row?.filter_state)).toEqual({ case: 'on' });
    socket.close();
  });

  test('goingOffline right after a heartbeat ends offline (the heartbeat never comes back)', async () => {
    const group = await macs(3);
    const sockets = await Promise.all(group.map((mac) => open(mac.token)));
    for (const socket of sockets) {
      socket.send(JSON.stringify({ heartbeat: {} }));
      socket.send(JSON.stringify({ goingOffline: {} }));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.app.deviceChannel.flushPresence();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.app.deviceChannel.flushPresence();
    expect(await presence(group.map((mac) => mac.computerUserId))).toEqual([]);
    for (const socket of sockets) socket.close();
  });

  test('a Mac heartbeating every 90 s is never offline; 100 s after its last heartbeat it is', async () => {
    const [mac] = await macs(1);
    const socket = await open(mac!.token);
    socket.send(JSON.stringify({ currentFilterState_v2: { _0: { on: {} } } }));
    await eventually(async () => (await presence([mac!.computerUserId])).length === 1);
    for (let beat = 0; beat < 3; beat++) {
      server.clock.advance(90_000);
      socket.send(JSON.stringify({ heartbeat: {} }));
      await noted([mac!.computerUserId], server.clock.now().toISOString());
      // The write lands up to PRESENCE_FLUSH_MS later: still online then.
      server.clock.advance(PRESENCE_FLUSH_MS);
      await server.app.deviceChannel.flushPresence();
      expect(await statusCase(mac!.computerUserId)).toBe('filterOn');
    }
    server.clock.advance(100_000 - PRESENCE_FLUSH_MS);
    expect(await statusCase(mac!.computerUserId)).toBe('offline');
    socket.close();
  });
});
