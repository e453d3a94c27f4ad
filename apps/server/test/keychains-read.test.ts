import { describe, expect, test } from 'vitest';
import { HOUR } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  assign,
  createKey,
  createKeychain,
  serverWithParents,
  website,
} from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

describe('GetAdminKeychains', () => {
  test('own keychains with assigned own children, unexpired keys, and all own children', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await addChild(server, parent.adminId, { name: 'Sam' });
    const kim = await addChild(server, parent.adminId, { name: 'Kim' });
    const school = await createKeychain(server, parent, 'School');
    const games = await createKeychain(server, parent, 'Games');
    const khan = await createKey(server, parent, school, website('khanacademy.org'), {
      comment: 'maths',
    });
    const expiring = await createKey(server, parent, school, website('ixl.com'), {
      expiration: new Date(server.clock.now().getTime() + HOUR).toISOString(),
    });
    await assign(server, sam, school);
    await assign(server, kim, school);
    await assign(server, kim, games);

    const result = await server.call('GetAdminKeychains', undefined, { token: parent.token });
    expect(result.status).toBe(200);
    expect(result.body.children).toEqual([
      { id: kim, name: 'Kim' },
      { id: sam, name: 'Sam' },
    ]);
    const byId = Object.fromEntries(
      result.body.keychains.map((k: { summary: { id: string } }) => [k.summary.id, k]),
    );
    expect(Object.keys(byId).sort()).toEqual([school, games].sort());
    expect(result.body.keychains.map((k: { summary: { name: string } }) => k.summary.name)).toEqual(
      ['Games', 'School'],
    );
    expect(byId[school].children).toEqual([kim, sam]);
    expect(byId[games].children).toEqual([kim]);
    expect(byId[school].summary).toEqual({
      id: school,
      parentId: parent.adminId,
      name: 'School',
      description: 'For school',
      isPublic: false,
      numKeys: 2,
    });
    const sortById = <T extends { id: string }>(keys: T[]) =>
      [...keys].sort((a, b) => a.id.localeCompare(b.id));
    expect(sortById(byId[school].keys)).toEqual(
      sortById([
        { id: khan, keychainId: school, comment: 'maths', key: website('khanacademy.org') },
        {
          id: expiring,
          keychainId: school,
          expiration: new Date(server.clock.now().getTime() + HOUR).toISOString(),
          key: website('ixl.com'),
        },
      ]),
    );
    expect(byId[games].keys).toEqual([]);
    expect(byId[games].summary.numKeys).toBe(0);
  });

  test('another parent sees none of them', async () => {
    const aliceKeychain = await createKeychain(server, alice, 'Alice only');
    await addChild(server, alice.adminId, { name: 'Alice child' });
    const result = await server.call('GetAdminKeychains', undefined, { token: bob.token });
    expect(result.status).toBe(200);
    const ids = result.body.keychains.map((k: { summary: { id: string } }) => k.summary.id);
    expect(ids).not.toContain(aliceKeychain);
    expect(result.body.children).toEqual([]);
  });

  test('needs a session', async () => {
    const result = await server.call('GetAdminKeychains');
    expect(result.status).toBe(401);
    expect(result.body.type).toBe('loggedOut');
  });
});

describe('GetAdminKeychain', () => {
  test('summary and keys of an own keychain', async () => {
    const keychain = await createKeychain(server, alice, 'Reading');
    const key = await createKey(server, alice, keychain, website('britannica.com'));
    const result = await server.call('GetAdminKeychain', keychain, { token: alice.token });
    expect(result.status).toBe(200);
    expect(result.body.summary).toMatchObject({ id: keychain, name: 'Reading', numKeys: 1 });
    expect(result.body.keys).toEqual([
      { id: key, keychainId: keychain, key: website('britannica.com') },
    ]);
  });

  test('accepts an upper-case id', async () => {
    const keychain = await createKeychain(server, alice, 'Upper');
    const result = await server.call('GetAdminKeychain', keychain.toUpperCase(), {
      token: alice.token,
    });
    expect(result.status).toBe(200);
    expect(result.body.summary.id).toBe(keychain);
  });

  test("another parent's keychain and an unknown id are the same notFound", async () => {
    const keychain = await createKeychain(server, alice, 'Private');
    const foreign = await server.call('GetAdminKeychain', keychain, { token: bob.token });
    const unknown = await server.call('GetAdminKeychain', newToken(), { token: bob.token });
    for (const result of [foreign, unknown]) {
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({
        type: 'notFound',
        id: '6ac1205a',
        entityName: 'Keychain',
      });
    }
  });
});

describe('key expiration', () => {
  test('an expired key disappears from GetAdminKeychain, numKeys and GetSelectableKeychains', async () => {
    const parent = await server.signUpVerifiedParent();
    const keychain = await createKeychain(server, parent, 'Holiday');
    const start = server.clock.now();
    await createKey(server, parent, keychain, website('keybr.com'));
    const temporary = await createKey(server, parent, keychain, website('typing.com'), {
      expiration: new Date(start.getTime() + 2 * HOUR).toISOString().replace('.000Z', 'Z'),
    });

    const before = await server.call('GetAdminKeychain', keychain, { token: parent.token });
    expect(before.body.summary.numKeys).toBe(2);
    expect(before.body.keys.map((k: { id: string }) => k.id)).toContain(temporary);

    server.clock.advance(2 * HOUR); // deleted_at = now: expired
    try {
      const after = await server.call('GetAdminKeychain', keychain, { token: parent.token });
      expect(after.body.summary.numKeys).toBe(1);
      expect(after.body.keys.map((k: { id: string }) => k.id)).not.toContain(temporary);

      const selectable = await server.call('GetSelectableKeychains', undefined, {
        token: parent.token,
      });
      expect(selectable.body.own).toEqual([expect.objectContaining({ id: keychain, numKeys: 1 })]);

      const all = await server.call('GetAdminKeychains', undefined, { token: parent.token });
      expect(all.body.keychains[0].keys).toHaveLength(1);
      expect(all.body.keychains[0].summary.numKeys).toBe(1);

      // the row is still there (expiration is soft deletion)
      const row = await server.db
        .selectFrom('keys')
        .select('id')
        .where('id', '=', temporary)
        .executeTakeFirst();
      expect(row).toBeDefined();
    } finally {
      server.clock.set(start);
    }
  });
});

describe('GetSelectableKeychains', () => {
  test('own keychains, and public keychains of other parents with their key counts', async () => {
    const parent = await server.signUpVerifiedParent();
    const mine = await createKeychain(server, parent, 'Mine');
    await createKey(server, parent, mine, website('example.com'));
    const aliceKeychain = await createKeychain(server, alice, 'Alice private');

    const result = await server.call('GetSelectableKeychains', undefined, { token: parent.token });
    expect(result.status).toBe(200);
    expect(result.body.own).toEqual([
      {
        id: mine,
        parentId: parent.adminId,
        name: 'Mine',
        description: 'For school',
        isPublic: false,
        numKeys: 1,
      },
    ]);
    const publicIds = result.body.public.map((k: { id: string }) => k.id);
    expect(publicIds).not.toContain(aliceKeychain);
    expect(publicIds).not.toContain(mine);
    expect(result.body.public.length).toBeGreaterThanOrEqual(8);
    for (const summary of result.body.public) {
      expect(summary.isPublic).toBe(true);
      expect(summary.parentId).not.toBe(parent.adminId);
      expect(summary.numKeys).toBeGreaterThan(0);
    }
    const zoom = result.body.public.find((k: { name: string }) => k.name === 'Zoom video calls');
    expect(zoom).toMatchObject({ numKeys: 3 });
    // the seeded catalogue's warnings: one before, and Android essentials' (it opens Google
    // search, as Android's connectivity check needs www.google.com: issue 33)
    const warned = result.body.public.filter((k: { warning?: string }) => k.warning);
    expect(warned.map((k: { name: string }) => k.name)).toContain('Android essentials');
    expect(warned).toHaveLength(2);
  });

  test("another parent's private keychain is in neither list", async () => {
    const aliceKeychain = await createKeychain(server, alice, 'Secret');
    const result = await server.call('GetSelectableKeychains', undefined, { token: bob.token });
    const ids = [...result.body.own, ...result.body.public].map((k: { id: string }) => k.id);
    expect(ids).not.toContain(aliceKeychain);
  });
});
