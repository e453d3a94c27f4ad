import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addMs, DAY, HOUR, toDbTime } from '../src/db/values.ts';
import { readCacheOf } from '../src/pairql/read-cache.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addKey,
  addKeychain,
  assign,
  connectedMac,
  createKey,
  deviceCall,
  inviteCoParent,
  newChildInput,
  reportState,
  website,
} from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 11: the read cache (pairql/read-cache.ts) and the family versions kept by triggers
// (migrations/0014). READ_CACHE_VERIFY is off here, so a stale entry would be served as it is:
// each test first shows the answer is a cache hit, then that a write (or the clock) changes it.

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ env: { READ_CACHE_VERIFY: '0' } });
});
afterAll(async () => server.close());

const cache = () => readCacheOf(server.db);

async function version(parentId: string) {
  const row = await server.db
    .selectFrom('family_versions')
    .select('version')
    .where('parent_id', '=', parentId)
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** Calls twice and checks the second call was answered from the cache, with the same answer. */
async function cachedCall(op: string, input: unknown, token: string) {
  const first = await server.call(op, input, { token });
  expect(first.status).toBe(200);
  const hits = cache().hits;
  const second = await server.call(op, input, { token });
  expect(second.status).toBe(200);
  expect(cache().hits).toBe(hits + 1);
  expect(second.body).toEqual(first.body);
  return second.body;
}

describe('dashboard reads', () => {
  test('a dashboard save is seen by the next read (read-your-writes)', async () => {
    const parent = await server.signUpVerifiedParent();
    const input = newChildInput({ name: 'Sam' });
    await server.call('SaveUser', input, { token: parent.token });
    expect((await cachedCall('GetUsers', undefined, parent.token))[0].name).toBe('Sam');
    expect((await cachedCall('GetUser', input.id, parent.token)).name).toBe('Sam');

    const saved = await server.call(
      'SaveUser',
      { ...input, isNew: false, name: 'Samantha' },
      { token: parent.token },
    );
    expect(saved.status).toBe(200);
    expect((await server.call('GetUsers', undefined, { token: parent.token })).body[0].name).toBe(
      'Samantha',
    );
    expect((await server.call('GetUser', input.id, { token: parent.token })).body.name).toBe(
      'Samantha',
    );

    const deleted = await server.call(
      'DeleteEntity_v2',
      { id: input.id, type: 'child' },
      { token: parent.token },
    );
    expect(deleted.status).toBe(200);
    expect((await server.call('GetUsers', undefined, { token: parent.token })).body).toEqual([]);
    expect((await server.call('GetUser', input.id, { token: parent.token })).status).toBe(404);
  });

  test('a device coming online, a filter state, and going offline after 100 s', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await connectedMac(server, parent.adminId);
    const status = async () =>
      (await server.call('GetUser', mac.childId, { token: parent.token })).body.devices[0].status;
    expect((await cachedCall('GetUser', mac.childId, parent.token)).devices[0].status).toEqual({
      case: 'offline',
    });

    await reportState(server, mac.computerUserId, { case: 'on' });
    expect(await status()).toEqual({ case: 'filterOn' });
    await reportState(server, mac.computerUserId, { case: 'off' });
    expect(await status()).toEqual({ case: 'filterOff' });
    expect((await cachedCall('GetUser', mac.childId, parent.token)).devices[0].status).toEqual({
      case: 'filterOff',
    });

    // a heartbeat while online changes no answer and no version
    const before = await version(parent.adminId);
    server.clock.advance(60_000);
    await server.db
      .updateTable('device_presence')
      .set({ last_seen_at: toDbTime(server.clock.now()) })
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(await version(parent.adminId)).toBe(before);
    expect((await cachedCall('GetUser', mac.childId, parent.token)).devices[0].status).toEqual({
      case: 'filterOff',
    });

    // no sign of life for 100 s: offline, with no write at all
    server.clock.advance(99_000);
    expect(await status()).toEqual({ case: 'filterOff' });
    server.clock.advance(1_000);
    expect(await status()).toEqual({ case: 'offline' });

    // a heartbeat after that brings it back
    server.clock.advance(5 * 60_000);
    await server.db
      .updateTable('device_presence')
      .set({ last_seen_at: toDbTime(server.clock.now()) })
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(await status()).toEqual({ case: 'filterOff' });
  });

  test('keys: saving and expiring (GetAdminKeychains, GetUsers numKeys)', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const keychainId = await addKeychain(server, parent.adminId);
    await assign(server, childId, keychainId);
    await addKey(server, keychainId, website('forever.com'));
    await addKey(server, keychainId, website('soon.example'), addMs(server.clock.now(), HOUR));

    let keychains = await cachedCall('GetAdminKeychains', undefined, parent.token);
    expect(keychains.keychains[0].keys).toHaveLength(2);
    expect((await cachedCall('GetUsers', undefined, parent.token))[0].keychains[0].numKeys).toBe(2);

    // a save from the dashboard (SaveKey)
    await createKey(server, parent, keychainId, website('newsite.com'));
    keychains = (await server.call('GetAdminKeychains', undefined, { token: parent.token })).body;
    expect(keychains.keychains[0].keys).toHaveLength(3);
    expect(
      (await server.call('GetUsers', undefined, { token: parent.token })).body[0].keychains[0]
        .numKeys,
    ).toBe(3);

    // the hour passes: the expired key is gone from every answer, with no write
    await cachedCall('GetAdminKeychains', undefined, parent.token);
    server.clock.advance(HOUR);
    keychains = (await server.call('GetAdminKeychains', undefined, { token: parent.token })).body;
    expect(
      keychains.keychains[0].keys.map((k: { key: { domain: string } }) => k.key.domain).sort(),
    ).toEqual(['forever.com', 'newsite.com']);
    expect(
      (await server.call('GetUsers', undefined, { token: parent.token })).body[0].keychains[0]
        .numKeys,
    ).toBe(2);
  });

  test("a public keychain's new key reaches the families whose children hold it", async () => {
    const owner = await server.signUpVerifiedParent();
    const other = await server.signUpVerifiedParent();
    const publicKeychain = await addKeychain(server, owner.adminId, { isPublic: true });
    const childId = await addChild(server, other.adminId);
    await assign(server, childId, publicKeychain);
    expect((await cachedCall('GetUsers', undefined, other.token))[0].keychains[0].numKeys).toBe(0);

    await addKey(server, publicKeychain, website('shared.example'));
    expect(
      (await server.call('GetUsers', undefined, { token: other.token })).body[0].keychains[0]
        .numKeys,
    ).toBe(1);
  });

  test('a job or webhook writing the database directly (subscription) is seen', async () => {
    const parent = await server.signUpVerifiedParent();
    expect((await cachedCall('GetAdmin', undefined, parent.token)).subscriptionStatus.case).toBe(
      'trialing',
    );
    await server.db
      .updateTable('parents')
      .set({ subscription_status: 'paid' })
      .where('id', '=', parent.adminId)
      .execute();
    expect(
      (await server.call('GetAdmin', undefined, { token: parent.token })).body.subscriptionStatus,
    ).toEqual({ case: 'paid' });
  });

  test("a trial's days left drop at their time, with no write", async () => {
    const parent = await server.signUpVerifiedParent();
    await server.db
      .updateTable('parents')
      .set({
        subscription_status: 'trialExpiringSoon',
        subscription_status_expiration: toDbTime(addMs(server.clock.now(), 2 * DAY + HOUR)),
      })
      .where('id', '=', parent.adminId)
      .execute();
    const daysLeft = async () =>
      (await server.call('GetAdmin', undefined, { token: parent.token })).body.subscriptionStatus
        .daysLeft;
    expect(
      (await cachedCall('GetAdmin', undefined, parent.token)).subscriptionStatus.daysLeft,
    ).toBe(3);
    server.clock.advance(HOUR - 1);
    expect(await daysLeft()).toBe(3);
    server.clock.advance(1);
    expect(await daysLeft()).toBe(2);
    server.clock.advance(DAY);
    expect(await daysLeft()).toBe(1);
  });

  test("another family's answers never leak, and its writes leave this family's version alone", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const input = newChildInput({ name: 'Alices kid' });
    await server.call('SaveUser', input, { token: alice.token });
    await cachedCall('GetUser', input.id, alice.token);
    await cachedCall('GetUsers', undefined, alice.token);

    expect((await server.call('GetUser', input.id, { token: bob.token })).status).toBe(404);
    expect((await server.call('GetUsers', undefined, { token: bob.token })).body).toEqual([]);

    const aliceVersion = await version(alice.adminId);
    await server.call('SaveUser', newChildInput({ name: 'Bobs kid' }), { token: bob.token });
    expect(await version(alice.adminId)).toBe(aliceVersion);
  });

  test("a co-parent is not served the owner's GetAdmin", async () => {
    const owner = await server.signUpVerifiedParent();
    const coParent = await inviteCoParent(server, owner);
    expect((await cachedCall('GetAdmin', undefined, owner.token)).role).toBeUndefined();
    expect((await cachedCall('GetAdmin', undefined, coParent.token)).role).toBe('coParent');
  });

  test('a cached answer goes out compressed as the client accepts, and equals the JSON', async () => {
    const parent = await server.signUpVerifiedParent();
    const keychainId = await addKeychain(server, parent.adminId);
    for (let i = 0; i < 20; i++) await addKey(server, keychainId, website(`site${i}.example`));
    const plain = await cachedCall('GetAdminKeychains', undefined, parent.token);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/pairql/dashboard/GetAdminKeychains',
        headers: { 'x-admintoken': parent.token, 'accept-encoding': encoding },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decode(response.rawPayload).toString())).toEqual(plain);
    }
  });
});

describe('CheckIn_v2', () => {
  test('its kept part follows dashboard saves, key expirations and releases', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await connectedMac(server, parent.adminId);
    const keychainId = await addKeychain(server, parent.adminId);
    await assign(server, mac.childId, keychainId);
    await addKey(server, keychainId, website('soon.example'), addMs(server.clock.now(), HOUR));
    const checkIn = async () => {
      const result = await deviceCall(server, 'CheckIn_v2', mac.token, { appVersion: '2.4.0' });
      expect(result.status).toBe(200);
      return result.body;
    };

    const first = await checkIn();
    const hits = cache().hits;
    server.clock.advance(1000);
    const second = await checkIn();
    expect(cache().hits).toBe(hits + 1);
    // the trusted time is each request's own
    expect(second.trustedTime).not.toBe(first.trustedTime);
    expect({ ...second, trustedTime: 0 }).toEqual({ ...first, trustedTime: 0 });
    // the kept part does not hold the token: each request's own is added to userData
    expect(second.userData.token).toBe(mac.token);
    expect(second.keychains[0].keys).toHaveLength(1);

    // a save from the dashboard
    const child = (await server.call('GetUser', mac.childId, { token: parent.token })).body;
    await server.call(
      'SaveUser',
      {
        ...newChildInput(),
        id: mac.childId,
        isNew: false,
        name: 'Renamed',
        keychains: child.keychains.map((k: { id: string }) => ({ id: k.id })),
      },
      { token: parent.token },
    );
    expect((await checkIn()).userData.name).toBe('Renamed');

    // the key expires
    server.clock.advance(HOUR);
    expect((await checkIn()).keychains[0].keys).toEqual([]);

    // a release (data shared by every family)
    await server.db
      .insertInto('releases')
      .values({
        id: newToken(),
        semver: '99.0.0',
        channel: 'stable',
        pace: 7,
        release_date: toDbTime(server.clock.now()),
        created_at: toDbTime(server.clock.now()),
      })
      .execute();
    expect((await checkIn()).latestRelease?.semver).toBe('99.0.0');
    await server.db.deleteFrom('releases').where('semver', '=', '99.0.0').execute();
    expect((await checkIn()).latestRelease).toEqual({ semver: '2.4.0' });
  });

  test('gzip is built from the kept part and the request fields, and decodes to the JSON', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await connectedMac(server, parent.adminId);
    const keychainId = await addKeychain(server, parent.adminId);
    await assign(server, mac.childId, keychainId);
    for (let i = 0; i < 30; i++) await addKey(server, keychainId, website(`s${i}.example`));
    const call = () =>
      server.app.inject({
        method: 'POST',
        url: '/pairql/macos-app/CheckIn_v2',
        headers: {
          'x-usertoken': mac.token,
          'content-type': 'application/json',
          'accept-encoding': 'gzip',
        },
        payload: JSON.stringify({ appVersion: '2.4.0', pendingUnlockRequests: [] }),
      });
    await call();
    server.clock.advance(1000);
    const response = await call();
    expect(response.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(response.rawPayload).toString());
    expect(body.trustedTime).toBe(server.clock.now().getTime() / 1000);
    expect(body.userData.token).toBe(mac.token);
    expect(body.resolvedUnlockRequests).toEqual([]);
    expect(body.keychains[0].keys).toHaveLength(30);
  });
});

describe('READ_CACHE_VERIFY', () => {
  test('a write the version missed is a 500 naming the operation', async () => {
    const verifying = await createTestServer({ env: { READ_CACHE_VERIFY: '1' } });
    try {
      const parent = await verifying.signUpVerifiedParent();
      const input = newChildInput({ name: 'Sam' });
      await verifying.call('SaveUser', input, { token: parent.token });
      expect((await verifying.call('GetUsers', undefined, { token: parent.token })).status).toBe(
        200,
      );
      expect((await verifying.call('GetUsers', undefined, { token: parent.token })).status).toBe(
        200,
      );

      // a change the cache cannot know about: the version is put back as it was
      const { version: before } = await verifying.db
        .selectFrom('family_versions')
        .select('version')
        .where('parent_id', '=', parent.adminId)
        .executeTakeFirstOrThrow();
      await verifying.db
        .updateTable('children')
        .set({ name: 'Changed' })
        .where('id', '=', input.id)
        .execute();
      await verifying.db
        .updateTable('family_versions')
        .set({ version: Number(before) })
        .where('parent_id', '=', parent.adminId)
        .execute();

      const stale = await verifying.call('GetUsers', undefined, { token: parent.token });
      expect(stale.status).toBe(500);
      expect(stale.body.debugMessage).toContain('GetUsers');
    } finally {
      await verifying.close();
    }
  });
});
