import { PENDING_SHOWN_PER_CHILD } from '@keyward/domain/request-flood';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { MINUTE, toDbTime } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addConnectionCode,
  addComputerUser,
  addMacToken,
  deviceCall,
} from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 31, finding 1: a child cannot fill the parents' inbox, and the reads a dashboard polls stay
// bounded however many requests wait. Real budgets (RATE_LIMIT_SCALE 1), SQLite or PostgreSQL.
// Before: one call of CreateUnlockRequests_v3 stored up to 1,000 rows and two Macs stored 40,000 in
// a minute; GetInbox then answered 12.9 MB, DashboardWidgets 7.6 MB, and GetFamilyDevices read
// every pending row. A browser's token also stood for a Mac on the Mac's paths.

let server: TestServer;
let wsUrl: string;
beforeAll(async () => {
  server = await createTestServer({ env: { RATE_LIMIT_SCALE: '1' } });
  const address = await (server.app as FastifyInstance).listen({ port: 0, host: '127.0.0.1' });
  wsUrl = address.replace(/^http/, 'ws');
});
afterAll(async () => server?.close());
beforeEach(() => server.clock.advance(2 * 60 * MINUTE));

const batch = (size: number, tag = newToken().slice(0, 8)) => ({
  blockedRequests: Array.from({ length: size }, (_, i) => ({
    bundleId: 'com.apple.Safari',
    hostname: `site-${tag}-${i}.example`,
  })),
  comment: 'for school',
});

async function familyWithMacs(macs: number) {
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId, { name: 'Emma' });
  const devices = [];
  for (let i = 0; i < macs; i++) {
    const { computerUserId } = await addComputerUser(server, parent.adminId, childId);
    devices.push({ computerUserId, token: await addMacToken(server, childId, computerUserId) });
  }
  return { parent, childId, devices };
}

const pendingOf = async (computerUserId: string) =>
  Number(
    (
      await server.db
        .selectFrom('unlock_requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('computer_user_id', '=', computerUserId)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('what a child may have waiting is budgeted (rows, not only calls)', () => {
  test('500 per device, 1,000 per child; past either the batch is refused whole with the 429', async () => {
    const { devices } = await familyWithMacs(3);
    const [first, second, third] = devices as [
      (typeof devices)[0],
      (typeof devices)[0],
      (typeof devices)[0],
    ];
    for (const [size, tag] of [
      [250, 'one'],
      [250, 'two'],
    ] as const) {
      const stored = await deviceCall(
        server,
        'CreateUnlockRequests_v3',
        first.token,
        batch(size, tag),
      );
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      expect(stored.body).toHaveLength(size);
    }
    expect(await pendingOf(first.computerUserId)).toBe(500);

    const refused = await deviceCall(server, 'CreateUnlockRequests_v3', first.token, batch(1));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ id: 'c4a1e8d2', type: 'badRequest', statusCode: 429 });
    expect(refused.body.userMessage).toMatch(/many requests from you to answer/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await pendingOf(first.computerUserId)).toBe(500);

    // a request already waiting is answered with its id, whatever the budget
    const again = await deviceCall(server, 'CreateUnlockRequests_v3', first.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'site-one-7.example' }],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await pendingOf(first.computerUserId)).toBe(500);

    // the child's second device has its own 500, then the child's 1,000 is reached
    for (const size of [400, 100]) {
      const stored = await deviceCall(server, 'CreateUnlockRequests_v3', second.token, batch(size));
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    }
    const childFull = await deviceCall(server, 'CreateUnlockRequests_v3', third.token, batch(1));
    expect(childFull.status).toBe(429);
    expect(await pendingOf(third.computerUserId)).toBe(0);

    // a batch bigger than what is left is refused whole, not cut
    await server.db
      .updateTable('unlock_requests')
      .set({ status: 'rejected' })
      .where('computer_user_id', '=', second.computerUserId)
      .execute();
    const tooBig = await deviceCall(server, 'CreateUnlockRequests_v3', third.token, batch(501));
    expect(tooBig.status).toBe(429);
    expect(await pendingOf(third.computerUserId)).toBe(0);
    const fits = await deviceCall(server, 'CreateUnlockRequests_v3', third.token, batch(500));
    expect(fits.status).toBe(200);
    expect(await pendingOf(third.computerUserId)).toBe(500);
  });

  test('parallel batches of one device never store past its budget', async () => {
    const { devices } = await familyWithMacs(1);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        deviceCall(server, 'CreateUnlockRequests_v3', devices[0]!.token, batch(100)),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
    expect(await pendingOf(devices[0]!.computerUserId)).toBe(500);
  });
});

/** Stores `count` pending requests of the device directly (as a flood before issue 31 left them). */
async function storePending(computerUserId: string, count: number, start: Date) {
  const rows = Array.from({ length: count }, (_, i) => {
    const at = toDbTime(new Date(start.getTime() + i * 1000));
    return {
      id: newToken(),
      computer_user_id: computerUserId,
      status: 'pending' as const,
      app_bundle_id: 'com.apple.Safari',
      url: `https://site-${i}.example/${'x'.repeat(200)}`,
      hostname: `site-${i}.example`,
      ip_address: null,
      request_comment: 'please, it is for school',
      response_comment: null,
      created_at: at,
      updated_at: at,
    };
  });
  for (let i = 0; i < rows.length; i += 100) {
    await server.db
      .insertInto('unlock_requests')
      .values(rows.slice(i, i + 100))
      .execute();
  }
}

describe('the polled reads stay bounded with 40,000 requests waiting', () => {
  test('GetInbox, DashboardWidgets and GetFamilyDevices: a page per child and a count of the rest', async () => {
    const { parent, childId, devices } = await familyWithMacs(2);
    const noahId = await addChild(server, parent.adminId, { name: 'Noah' });
    const noah = await addComputerUser(server, parent.adminId, noahId);
    const start = new Date(server.clock.now().getTime() - 7 * 60 * MINUTE);
    await storePending(devices[0]!.computerUserId, 20_000, start);
    await storePending(devices[1]!.computerUserId, 20_000, new Date(start.getTime() + 500));
    await storePending(noah.computerUserId, 3, new Date(start.getTime() + 60 * MINUTE));

    const inbox = await server.call('GetInbox', undefined, { token: parent.token });
    expect(inbox.status).toBe(200);
    expect(JSON.stringify(inbox.body).length).toBeLessThanOrEqual(100 * 1024);
    const items = inbox.body.items as {
      childId: string;
      createdAt: string;
      device: { id: string };
    }[];
    expect(items.filter((item) => item.childId === childId)).toHaveLength(PENDING_SHOWN_PER_CHILD);
    // Noah's three are listed although Emma's are newer: each child gets its page
    expect(items.filter((item) => item.childId === noahId)).toHaveLength(3);
    // the newest of Emma's: the second Mac's last one
    const emmas = items.filter((item) => item.childId === childId);
    expect(emmas[0]!.device.id).toBe(devices[1]!.computerUserId);
    expect(emmas.map((item) => item.createdAt)).toEqual(
      [...emmas.map((item) => item.createdAt)].sort().reverse(),
    );
    // each device's requests are counted up to 1,000 (a device stores at most 500 since issue 31)
    expect(inbox.body.more).toEqual([
      { childId, childName: 'Emma', count: 2 * 1000 - PENDING_SHOWN_PER_CHILD, isAtLeast: true },
    ]);

    const widgets = await server.call('DashboardWidgets', undefined, { token: parent.token });
    expect(widgets.status).toBe(200);
    expect(JSON.stringify(widgets.body).length).toBeLessThanOrEqual(100 * 1024);
    const unlocks = widgets.body.unlockRequests as { childId: string }[];
    expect(unlocks.filter((r) => r.childId === childId)).toHaveLength(PENDING_SHOWN_PER_CHILD);
    expect(unlocks.filter((r) => r.childId === noahId)).toHaveLength(3);

    const family = await server.call('GetFamilyDevices', undefined, { token: parent.token });
    expect(family.status).toBe(200);
    expect(JSON.stringify(family.body).length).toBeLessThanOrEqual(100 * 1024);
    const pendingByDevice = Object.fromEntries(
      (family.body as { id: string; pendingRequests: number }[]).map((d) => [
        d.id,
        d.pendingRequests,
      ]),
    );
    expect(pendingByDevice).toEqual({
      [devices[0]!.computerUserId]: 1000,
      [devices[1]!.computerUserId]: 1000,
      [noah.computerUserId]: 3,
    });

    // below the ceiling the count is exact
    await server.db
      .updateTable('unlock_requests')
      .set({ status: 'rejected' })
      .where('computer_user_id', '=', devices[1]!.computerUserId)
      .execute();
    await server.db
      .updateTable('unlock_requests')
      .set({ status: 'rejected' })
      .where('computer_user_id', '=', devices[0]!.computerUserId)
      .where('created_at', '>=', toDbTime(new Date(start.getTime() + 300 * 1000)))
      .execute();
    const exact = await server.call('GetInbox', undefined, { token: parent.token });
    expect(exact.body.more).toEqual([
      { childId, childName: 'Emma', count: 300 - PENDING_SHOWN_PER_CHILD },
    ]);

    // another family sees none of it
    const other = await server.signUpVerifiedParent();
    const theirs = await server.call('GetInbox', undefined, { token: other.token });
    expect(theirs.body).toEqual({ items: [], more: [] });
  }, 120_000);
});

describe('a browser token is not a Mac or iPhone token (issue 31)', () => {
  async function connectedBrowser() {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const code = await addConnectionCode(server, childId);
    const result = await server.call(
      'ConnectBrowser',
      {
        code,
        browser: 'Chrome',
        browserVersion: '142.0.7444.59',
        platform: 'windows',
        extensionVersion: '1.0.0',
      },
      { namespace: 'browser-filter' },
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.token as string;
  }

  test('refused on the Mac operations, the Mac push channel and the iOS operations', async () => {
    const token = await connectedBrowser();
    // it works where it belongs
    const own = await server.call(
      'CheckIn',
      { extensionVersion: '1.0.0', browserVersion: '142.0.7444.59', incognitoAllowed: true },
      { namespace: 'browser-filter', token },
    );
    expect(own.status, JSON.stringify(own.body)).toBe(200);

    for (const [op, input] of [
      ['CheckIn_v2', { appVersion: '2.5.0' }],
      ['Heartbeat', { heartbeat: {} }],
      ['CreateUnlockRequests_v3', batch(1)],
      ['CreateSuspendFilterRequest_v2', { duration: 300 }],
    ] as const) {
      const result = await deviceCall(server, op, token, input);
      expect(result.status, op).toBe(401);
    }
    const ios = await server.call(
      'CreateSuspendFilterRequest',
      { duration: 300 },
      { namespace: 'ios-app', token },
    );
    expect(ios.status).toBe(401);

    await expect(
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`${wsUrl}/app-websocket`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        socket.on('open', () => {
          socket.close();
          resolve('open');
        });
        socket.on('error', reject);
      }),
    ).rejects.toThrow('401');
  });
});
