import { describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addComputerUser,
  addKey,
  addKeychain,
  addMacToken,
  assign,
  deviceCall,
  type Parent,
  recordPushes,
  serverWithParents,
  website,
} from './fixtures.ts';

// The parent's side of unlock requests (server-behaviour §3.5): GetUnlockRequests,
// GetUserUnlockRequests, GetUnlockRequest, UpdateUnlockRequest, and the push to the asking Mac.

const { server, alice, bob } = await serverWithParents();

async function newMac(parent: Parent, name = 'Sam', childId?: string) {
  const child = childId ?? (await addChild(server, parent.adminId, { name }));
  const { computerUserId } = await addComputerUser(server, parent.adminId, child);
  const token = await addMacToken(server, child, computerUserId);
  return { childId: child, computerUserId, token };
}

async function ask(token: string, blockedRequests: object[], comment?: string): Promise<string[]> {
  const result = await deviceCall(server, 'CreateUnlockRequests_v3', token, {
    blockedRequests,
    ...(comment ? { comment } : {}),
  });
  if (result.status !== 200) throw new Error(JSON.stringify(result.body));
  return result.body;
}

const dashboard = (parent: Parent, op: string, input?: unknown) =>
  server.call(op, input, { token: parent.token });

// Alice: Sam (one Mac) and Kim (one Mac); Bob: his own child.
const sam = await newMac(alice, 'Sam');
const kim = await newMac(alice, 'Kim');
const bobs = await newMac(bob, 'Lee');
const [samSafari, samZoom, samApp] = (await ask(
  sam.token,
  [
    {
      bundleId: 'com.apple.Safari',
      url: 'https://www.khanacademy.org/math',
      hostname: 'www.khanacademy.org',
    },
    { bundleId: 'us.zoom.xos', hostname: 'zoom.us', ipAddress: '170.114.52.2' },
    { bundleId: 'com.example.unknown-app' },
  ],
  'homework',
)) as [string, string, string];
server.clock.advance(60_000);
const [kimRequest = ''] = await ask(kim.token, [
  { bundleId: 'com.google.Chrome', ipAddress: '10.0.0.7' },
]);
const [bobRequest = ''] = await ask(bobs.token, [
  { bundleId: 'com.apple.Safari', hostname: 'bob.example.com' },
]);

describe('GetUnlockRequest', () => {
  test('a browser request: domain = hostname, app from the catalogue, browser category', async () => {
    const result = await dashboard(alice, 'GetUnlockRequest', samSafari);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: samSafari,
      userId: sam.childId,
      userName: 'Sam',
      status: 'pending',
      url: 'https://www.khanacademy.org/math',
      domain: 'www.khanacademy.org',
      requestComment: 'homework',
      appName: 'Safari',
      appSlug: 'safari',
      appBundleId: 'com.apple.Safari',
      appCategories: ['browser'],
      createdAt: '2025-01-15T12:00:00.000Z',
    });
  });

  test('an app request carries its IP and category; an unknown app only its bundle id', async () => {
    const zoom = (await dashboard(alice, 'GetUnlockRequest', samZoom.toUpperCase())).body;
    expect(zoom).toMatchObject({
      domain: 'zoom.us',
      ipAddress: '170.114.52.2',
      appBundleId: 'us.zoom.xos',
    });
    expect(zoom.appCategories).not.toContain('browser');
    expect(zoom.appName).toEqual(expect.any(String));

    const unknown = (await dashboard(alice, 'GetUnlockRequest', samApp)).body;
    expect(unknown).toMatchObject({ appBundleId: 'com.example.unknown-app', appCategories: [] });
    expect(unknown).not.toHaveProperty('appName');
    expect(unknown).not.toHaveProperty('url');
    expect(unknown).not.toHaveProperty('domain');
  });

  test("another parent's request is refused exactly like a missing one", async () => {
    const foreign = await dashboard(alice, 'GetUnlockRequest', bobRequest);
    const missing = await dashboard(alice, 'GetUnlockRequest', newToken());
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const { requestId: _a, ...foreignBody } = foreign.body;
    const { requestId: _b, ...missingBody } = missing.body;
    expect(foreignBody).toEqual(missingBody);
    expect(foreignBody).toMatchObject({
      id: '6ac1205a',
      type: 'notFound',
      entityName: 'UnlockRequest',
    });
  });
});

describe('GetUnlockRequests and GetUserUnlockRequests', () => {
  test('all own children, pending first then newest first, never another parent’s', async () => {
    await dashboard(alice, 'UpdateUnlockRequest', { id: samApp, status: 'rejected' });
    const all = await dashboard(alice, 'GetUnlockRequests');
    expect(all.status).toBe(200);
    const ids = all.body.map((request: { id: string }) => request.id);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe(kimRequest); // newest pending
    expect(ids.at(-1)).toBe(samApp); // decided ones last
    expect(ids).not.toContain(bobRequest);
    expect(all.body.at(-1).status).toBe('rejected');
  });

  test('one child’s requests only', async () => {
    const kims = await dashboard(alice, 'GetUserUnlockRequests', kim.childId);
    expect(kims.status).toBe(200);
    expect(kims.body.map((request: { id: string }) => request.id)).toEqual([kimRequest]);
    expect(kims.body[0]).toMatchObject({
      userName: 'Kim',
      ipAddress: '10.0.0.7',
      appCategories: ['browser'],
    });
  });

  test('a child without requests has an empty list', async () => {
    const childId = await addChild(server, alice.adminId, { name: 'Ben' });
    expect((await dashboard(alice, 'GetUserUnlockRequests', childId)).body).toEqual([]);
  });

  test("another parent's child is refused exactly like a missing one", async () => {
    const foreign = await dashboard(alice, 'GetUserUnlockRequests', bobs.childId);
    const missing = await dashboard(alice, 'GetUserUnlockRequests', newToken());
    expect(foreign.status).toBe(404);
    const { requestId: _a, ...foreignBody } = foreign.body;
    const { requestId: _b, ...missingBody } = missing.body;
    expect(foreignBody).toEqual(missingBody);
  });
});

describe('UpdateUnlockRequest', () => {
  test('accepting saves the status and pushes the decision to the asking Mac only', async () => {
    const samsOtherMac = await newMac(alice, 'Sam', sam.childId);
    const pushes = recordPushes(server, [
      sam.computerUserId,
      samsOtherMac.computerUserId,
      kim.computerUserId,
    ]);
    const keysBefore = await server.db.selectFrom('keys').select('id').execute();

    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id: samSafari,
      status: 'accepted',
      responseComment: ' have fun ',
    });
    pushes.stop();
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expect(pushes.received).toEqual([
      { computerUserId: sam.computerUserId, case: 'unlockRequestUpdated_v2' },
    ]);
    expect(pushes.to(sam.computerUserId)).toEqual([
      {
        case: 'unlockRequestUpdated_v2',
        id: samSafari,
        status: 'accepted',
        target: 'https://www.khanacademy.org/math',
        comment: 'have fun',
      },
    ]);
    const row = await server.db
      .selectFrom('unlock_requests')
      .selectAll()
      .where('id', '=', samSafari)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'accepted', response_comment: 'have fun' });
    // accepting never creates a key: the dashboard calls SaveKey itself
    expect(await server.db.selectFrom('keys').select('id').execute()).toEqual(keysBefore);
    expect((await dashboard(alice, 'GetUnlockRequest', samSafari)).body.status).toBe('accepted');
  });

  test('denying without a comment pushes no comment', async () => {
    const pushes = recordPushes(server, [kim.computerUserId]);
    await dashboard(alice, 'UpdateUnlockRequest', { id: kimRequest, status: 'rejected' });
    pushes.stop();
    expect(pushes.to(kim.computerUserId)).toEqual([
      { case: 'unlockRequestUpdated_v2', id: kimRequest, status: 'rejected', target: '10.0.0.7' },
    ]);
  });

  test('an app-only request is named by its bundle id', async () => {
    // (samApp was denied above: the first decision stands, issue 19)
    const [appOnly = ''] = await ask(sam.token, [{ bundleId: 'com.example.unknown-app' }]);
    const pushes = recordPushes(server, [sam.computerUserId]);
    await dashboard(alice, 'UpdateUnlockRequest', { id: appOnly, status: 'accepted' });
    pushes.stop();
    expect(pushes.to(sam.computerUserId)[0]).toMatchObject({ target: 'com.example.unknown-app' });
  });

  test('setting a request back to pending is a 400 with a message', async () => {
    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id: samZoom,
      status: 'pending',
    });
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe('Choose whether to accept or deny this unlock request.');
  });

  test.each<[string, unknown]>([
    ['an unknown status', { status: 'maybe' }],
    ['an over-long comment', { status: 'rejected', responseComment: 'a'.repeat(2001) }],
    ['a malformed id', { id: 'not-an-id', status: 'rejected' }],
  ])('refuses %s with a contract 400', async (_name, input) => {
    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id: samZoom,
      ...(input as object),
    });
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toEqual(expect.any(String));
  });

  test("another parent's request is refused like a missing one, untouched and not pushed", async () => {
    const pushes = recordPushes(server, [bobs.computerUserId]);
    const foreign = await dashboard(alice, 'UpdateUnlockRequest', {
      id: bobRequest,
      status: 'accepted',
    });
    const missing = await dashboard(alice, 'UpdateUnlockRequest', {
      id: newToken(),
      status: 'accepted',
    });
    pushes.stop();
    expect(foreign.status).toBe(404);
    const { requestId: _a, ...foreignBody } = foreign.body;
    const { requestId: _b, ...missingBody } = missing.body;
    expect(foreignBody).toEqual(missingBody);
    expect(pushes.received).toEqual([]);
    const row = await server.db
      .selectFrom('unlock_requests')
      .select('status')
      .where('id', '=', bobRequest)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });
});

describe.runIf(process.env.TEST_DATABASE_URL?.startsWith('postgres'))(
  'decisions across instances (PostgreSQL NOTIFY)',
  () => {
    test('a decision taken on another instance reaches the Mac held by this one', async () => {
      const mac = await newMac(alice, 'Ivy');
      const [id = ''] = await ask(mac.token, [
        { bundleId: 'com.apple.Safari', hostname: 'ivy.example.com' },
      ]);
      const pushes = recordPushes(server, [mac.computerUserId]);
      const otherInstance = await buildApp({
        config: server.config,
        db: server.db,
        clock: server.clock,
      });
      try {
        const result = await otherInstance.inject({
          method: 'POST',
          url: '/pairql/dashboard/UpdateUnlockRequest',
          headers: { 'content-type': 'application/json', 'x-admintoken': alice.token },
          payload: JSON.stringify({ id, status: 'accepted' }),
        });
        expect(result.statusCode).toBe(200);
        const deadline = Date.now() + 5000;
        while (pushes.received.length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(pushes.to(mac.computerUserId)).toEqual([
          { case: 'unlockRequestUpdated_v2', id, status: 'accepted', target: 'ivy.example.com' },
        ]);
      } finally {
        pushes.stop();
        await otherInstance.close();
      }
    });
  },
);

// Issue 32: "Save key and accept" into a keychain the child does not have unlocked nothing.
describe('UpdateUnlockRequest with the keychain the key went into', () => {
  const childKeychains = (childId: string) =>
    server.db
      .selectFrom('child_keychains')
      .select(['keychain_id', 'schedule'])
      .where('child_id', '=', childId)
      .execute();

  test('a keychain the child does not have is given to them, and the Mac gets its key', async () => {
    const mac = await newMac(alice, 'Ada');
    const school = await addKeychain(server, alice.adminId, { name: 'School' });
    await addKey(server, school, website('games.example.com'));
    const [id = ''] = await ask(mac.token, [
      { bundleId: 'com.apple.Safari', hostname: 'games.example.com' },
    ]);
    const pushes = recordPushes(server, [mac.computerUserId]);
    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id,
      status: 'accepted',
      keychainId: school,
    });
    pushes.stop();
    expect(result.status).toBe(200);
    expect(await childKeychains(mac.childId)).toEqual([{ keychain_id: school, schedule: null }]);
    expect(pushes.to(mac.computerUserId).map((push) => push.case)).toEqual(
      expect.arrayContaining(['unlockRequestUpdated_v2', 'userUpdated']),
    );
    const checkIn = await deviceCall(server, 'CheckIn_v2', mac.token, { appVersion: '2.5.0' });
    expect((checkIn.body.keychains as { id: string }[]).map((k) => k.id)).toEqual([school]);
  });

  test('a keychain the child already has keeps its assignment and schedule', async () => {
    const mac = await newMac(alice, 'Bea');
    const school = await addKeychain(server, alice.adminId);
    const schedule = {
      mode: 'active',
      days: {
        sunday: true,
        monday: true,
        tuesday: true,
        wednesday: true,
        thursday: true,
        friday: true,
        saturday: true,
      },
      window: { start: { hour: 8, minute: 0 }, end: { hour: 15, minute: 0 } },
    };
    await assign(server, mac.childId, school, schedule as never);
    const [id = ''] = await ask(mac.token, [
      { bundleId: 'com.apple.Safari', hostname: 'b.example.com' },
    ]);
    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id,
      status: 'accepted',
      keychainId: school,
    });
    expect(result.status).toBe(200);
    const rows = await childKeychains(mac.childId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.schedule).not.toBeNull();
  });

  test("another family's keychain is a 404 and nothing is decided or given", async () => {
    const mac = await newMac(alice, 'Cy');
    const bobs = await addKeychain(server, bob.adminId, { name: "Bob's" });
    const [id = ''] = await ask(mac.token, [
      { bundleId: 'com.apple.Safari', hostname: 'c.example.com' },
    ]);
    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id,
      status: 'accepted',
      keychainId: bobs,
    });
    expect(result.status).toBe(404);
    expect(await childKeychains(mac.childId)).toEqual([]);
    expect((await dashboard(alice, 'GetUnlockRequest', id)).body.status).toBe('pending');
  });

  test('denying ignores the keychain', async () => {
    const mac = await newMac(alice, 'Di');
    const school = await addKeychain(server, alice.adminId);
    const [id = ''] = await ask(mac.token, [
      { bundleId: 'com.apple.Safari', hostname: 'd.example.com' },
    ]);
    const result = await dashboard(alice, 'UpdateUnlockRequest', {
      id,
      status: 'rejected',
      keychainId: school,
    });
    expect(result.status).toBe(200);
    expect(await childKeychains(mac.childId)).toEqual([]);
  });
});
