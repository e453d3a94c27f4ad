import type { SharedKey } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { fromDbJson, HOUR } from '../src/db/values.ts';
import { PUBLIC_KEYCHAINS } from '../src/db/migrations/0003_public_keychains.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addChildWithComputer,
  addComputerUser,
  assign,
  createKey,
  createKeychain,
  keychainRow,
  keyRow,
  recordPushes,
  securityEvents,
  serverWithParents,
  website,
} from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

const publicKeychain = PUBLIC_KEYCHAINS[0]!.id;
const later = (hours: number) =>
  new Date(server.clock.now().getTime() + hours * HOUR).toISOString();

describe('SaveKeychain', () => {
  test('isNew creates a private keychain with the client id, name trimmed, event keychainCreated', async () => {
    const id = newToken().toUpperCase();
    const result = await server.call(
      'SaveKeychain',
      { isNew: true, id, name: '  Homework  ', description: 'School sites' },
      { token: alice.token },
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    const row = await keychainRow(server, id.toLowerCase());
    expect(row).toMatchObject({
      parent_id: alice.adminId,
      name: 'Homework',
      description: 'School sites',
      warning: null,
    });
    expect(Boolean(row?.is_public)).toBe(false);
    const events = await securityEvents(server, alice.adminId, 'keychainCreated');
    expect(events.map((e) => e.detail)).toContain('name: Homework');
  });

  test('isNew with an existing id: done for its parent (sent again), badRequest for another; the row untouched', async () => {
    const id = await createKeychain(server, alice, 'Original');
    const before = await keychainRow(server, id);
    // the same create sent again (issue 20)
    const again = await server.call(
      'SaveKeychain',
      { isNew: true, id, name: 'Original', description: 'For school' },
      { token: alice.token },
    );
    expect(again.status).toBe(200);
    // issue 31: with other content it is not the same create; the parent is told to reload
    // (before: 200, silently keeping 'Original')
    for (const parent of [alice, bob]) {
      const result = await server.call(
        'SaveKeychain',
        { isNew: true, id, name: 'Hijack' },
        { token: parent.token },
      );
      expect(result.status).toBe(400);
    }
    const other = await server.call(
      'SaveKeychain',
      { isNew: true, id, name: 'Hijack' },
      { token: alice.token },
    );
    expect(other.body.userMessage).toMatch(
      /already saved with other details\. It is listed as it was saved/,
    );
    expect(await keychainRow(server, id)).toEqual(before);
  });

  test('a blank name → 400 with a clear message; nothing stored', async () => {
    const id = newToken();
    const result = await server.call(
      'SaveKeychain',
      { isNew: true, id, name: '   ' },
      { token: alice.token },
    );
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe('Please give the keychain a name.');
    expect(await keychainRow(server, id)).toBeUndefined();
  });

  test('a name over 100 characters or a description over 2000 → 400', async () => {
    const id = newToken();
    const long = await server.call(
      'SaveKeychain',
      { isNew: true, id, name: 'x'.repeat(101) },
      { token: alice.token },
    );
    expect(long.status).toBe(400);
    const description = await server.call(
      'SaveKeychain',
      { isNew: true, id, name: 'ok', description: 'x'.repeat(2001) },
      { token: alice.token },
    );
    expect(description.status).toBe(400);
    expect(await keychainRow(server, id)).toBeUndefined();
  });

  test('update renames and re-describes, and pushes userUpdated to the holders only', async () => {
    const id = await createKeychain(server, alice, 'Before');
    const { childId: holder, computerUserId: holderMac } = await addChildWithComputer(
      server,
      alice.adminId,
      { name: 'Holder' },
    );
    const { computerUserId: otherMac } = await addChildWithComputer(server, alice.adminId, {
      name: 'Other',
    });
    await assign(server, holder, id);
    const pushes = recordPushes(server, [holderMac, otherMac]);
    try {
      const result = await server.call(
        'SaveKeychain',
        { isNew: false, id, name: 'After', description: '  ' },
        { token: alice.token },
      );
      expect(result.status).toBe(200);
      expect(await keychainRow(server, id)).toMatchObject({ name: 'After', description: null });
      expect(pushes.to(holderMac)).toEqual([{ case: 'userUpdated' }]);
      expect(pushes.to(otherMac)).toEqual([]);
    } finally {
      pushes.stop();
    }
  });

  test("another parent's keychain, a public keychain and an unknown id → notFound, unchanged", async () => {
    const id = await createKeychain(server, alice, 'Alice keychain');
    const before = await keychainRow(server, id);
    const publicBefore = await keychainRow(server, publicKeychain);
    for (const target of [id, publicKeychain, newToken()]) {
      const result = await server.call(
        'SaveKeychain',
        { isNew: false, id: target, name: 'Renamed by Bob' },
        { token: bob.token },
      );
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Keychain' });
    }
    expect(await keychainRow(server, id)).toEqual(before);
    expect(await keychainRow(server, publicKeychain)).toEqual(publicBefore);
  });
});

describe('SaveKey', () => {
  test('isNew stores the key with comment and expiration, event keyCreated describes it', async () => {
    const keychain = await createKeychain(server, alice, 'Keys');
    const id = newToken();
    const expiration = later(24).replace('.000Z', 'Z');
    const key: SharedKey = {
      type: 'domain',
      domain: 'docs.google.com',
      scope: { type: 'single', single: { type: 'bundleId', bundleId: 'com.google.Chrome' } },
    };
    const result = await server.call(
      'SaveKey',
      { isNew: true, id, keychainId: keychain, key, comment: '  homework  ', expiration },
      { token: alice.token },
    );
    expect(result.status).toBe(200);
    const row = await keyRow(server, id);
    expect(row).toMatchObject({
      keychain_id: keychain,
      comment: 'homework',
      deleted_at: new Date(expiration).toISOString(),
    });
    expect(fromDbJson(row?.key)).toEqual(key);
    const events = await securityEvents(server, alice.adminId, 'keyCreated');
    expect(events.map((e) => e.detail)).toContain(
      'keychain: Keys, key: docs.google.com (this domain and www. only) in the app com.google.Chrome',
    );
  });

  test('keyCreated names a catalogue app by its name, an unknown slug as it is', async () => {
    const keychain = await createKeychain(server, alice, 'Apps');
    for (const identifiedAppSlug of ['zoom', 'not-in-catalogue']) {
      const result = await server.call(
        'SaveKey',
        {
          isNew: true,
          id: newToken(),
          keychainId: keychain,
          key: { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug } },
        },
        { token: alice.token },
      );
      expect(result.status).toBe(200);
    }
    const events = await securityEvents(server, alice.adminId, 'keyCreated');
    expect(events.map((e) => e.detail)).toEqual(
      expect.arrayContaining([
        'keychain: Apps, key: all internet access for the app Zoom',
        'keychain: Apps, key: all internet access for the app not-in-catalogue',
      ]),
    );
  });

  test('isNew with an existing key id: done when sent again, the existing key untouched', async () => {
    const keychain = await createKeychain(server, alice, 'Dup');
    const id = await createKey(server, alice, keychain, website('example.com'));
    const before = await keyRow(server, id);
    const again = await server.call(
      'SaveKey',
      { isNew: true, id, keychainId: keychain, key: website('example.com') },
      { token: alice.token },
    );
    expect(again.status).toBe(200);
    // issue 31: another key under the same id is refused, not answered as done
    const result = await server.call(
      'SaveKey',
      { isNew: true, id, keychainId: keychain, key: website('other.org') },
      { token: alice.token },
    );
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toMatch(/already saved with other details/);
    expect(await keyRow(server, id)).toEqual(before);
    // the id under another of her keychains is not the same create: refused
    const other = await createKeychain(server, alice, 'Other');
    const moved = await server.call(
      'SaveKey',
      { isNew: true, id, keychainId: other, key: website('other.org') },
      { token: alice.token },
    );
    expect(moved.status).toBe(400);
    expect(await keyRow(server, id)).toEqual(before);
  });

  const badKeys: [string, SharedKey, string][] = [
    [
      'a space in the domain',
      { type: 'domain', domain: 'exa mple', scope: { type: 'webBrowsers' } },
      "'exa mple' is not a valid website address",
    ],
    [
      'an IP address under domain',
      { type: 'domain', domain: '192.168.1.10', scope: { type: 'webBrowsers' } },
      "'192.168.1.10' is an IP address: use an IP address key",
    ],
    [
      'a pattern without *',
      { type: 'domainRegex', pattern: 'example.com', scope: { type: 'webBrowsers' } },
      "The pattern 'example.com' must contain a *",
    ],
    [
      'a large shared host with any subdomain',
      { type: 'anySubdomain', domain: 'youtube.com', scope: { type: 'webBrowsers' } },
      "'youtube.com' is a large shared host: a key can only unlock that exact domain",
    ],
    [
      'an invalid IP address',
      { type: 'ipAddress', ipAddress: '300.1.1.1', scope: { type: 'unrestricted' } },
      "'300.1.1.1' is not a valid IP address",
    ],
  ];
  test.each(badKeys)('%s → 400 naming the problem, nothing stored', async (_name, key, message) => {
    const keychain = await createKeychain(server, alice, 'Bad keys');
    const id = newToken();
    const result = await server.call(
      'SaveKey',
      { isNew: true, id, keychainId: keychain, key },
      { token: alice.token },
    );
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toBe(message);
    expect(await keyRow(server, id)).toBeUndefined();
  });

  test('a bad key on update leaves the stored key as it was', async () => {
    const keychain = await createKeychain(server, alice, 'Update bad');
    const id = await createKey(server, alice, keychain, website('example.com'));
    const before = await keyRow(server, id);
    const result = await server.call(
      'SaveKey',
      { isNew: false, id, keychainId: keychain, key: website('exa mple') },
      { token: alice.token },
    );
    expect(result.status).toBe(400);
    expect(await keyRow(server, id)).toEqual(before);
  });

  test('an expiration in the past or now → 400, nothing stored', async () => {
    const keychain = await createKeychain(server, alice, 'Past');
    for (const expiration of [later(-1), server.clock.now().toISOString()]) {
      const id = newToken();
      const result = await server.call(
        'SaveKey',
        { isNew: true, id, keychainId: keychain, key: website('example.com'), expiration },
        { token: alice.token },
      );
      expect(result.status).toBe(400);
      expect(result.body.userMessage).toBe('The expiration must be in the future.');
      expect(await keyRow(server, id)).toBeUndefined();
    }
  });

  test('update replaces key, comment and expiration, and pushes to the holders', async () => {
    const keychain = await createKeychain(server, alice, 'Editable');
    const id = await createKey(server, alice, keychain, website('example.com'), {
      comment: 'old',
      expiration: later(5),
    });
    const { childId: child, computerUserId: mac } = await addChildWithComputer(
      server,
      alice.adminId,
    );
    await assign(server, child, keychain);
    const pushes = recordPushes(server, [mac]);
    try {
      const result = await server.call(
        'SaveKey',
        { isNew: false, id, keychainId: keychain, key: website('example.org') },
        { token: alice.token },
      );
      expect(result.status).toBe(200);
      const row = await keyRow(server, id);
      expect(fromDbJson(row?.key)).toEqual(website('example.org'));
      expect(row).toMatchObject({ comment: null, deleted_at: null });
      expect(pushes.to(mac)).toEqual([{ case: 'userUpdated' }]);
    } finally {
      pushes.stop();
    }
  });

  test('a new key pushes userUpdated to the Macs of children holding the keychain', async () => {
    const keychain = await createKeychain(server, alice, 'Pushy');
    const child = await addChild(server, alice.adminId);
    const macs = [
      (await addComputerUser(server, alice.adminId, child)).computerUserId,
      (await addComputerUser(server, alice.adminId, child)).computerUserId,
    ];
    await assign(server, child, keychain);
    const pushes = recordPushes(server, macs);
    try {
      await createKey(server, alice, keychain, website('example.net'));
      for (const mac of macs) expect(pushes.to(mac)).toEqual([{ case: 'userUpdated' }]);
    } finally {
      pushes.stop();
    }
  });

  test('update of a key through another of the own keychains → notFound, unchanged', async () => {
    const first = await createKeychain(server, alice, 'First');
    const second = await createKeychain(server, alice, 'Second');
    const id = await createKey(server, alice, first, website('example.com'));
    const before = await keyRow(server, id);
    const result = await server.call(
      'SaveKey',
      { isNew: false, id, keychainId: second, key: website('example.org') },
      { token: alice.token },
    );
    expect(result.status).toBe(404);
    expect(result.body.entityName).toBe('Key');
    expect(await keyRow(server, id)).toEqual(before);
  });

  test('update of an expired key → notFound (expired keys are invisible)', async () => {
    const keychain = await createKeychain(server, alice, 'Expired');
    const id = await createKey(server, alice, keychain, website('example.com'), {
      expiration: later(1),
    });
    const start = server.clock.now();
    server.clock.advance(2 * HOUR);
    try {
      const result = await server.call(
        'SaveKey',
        { isNew: false, id, keychainId: keychain, key: website('example.org') },
        { token: alice.token },
      );
      expect(result.status).toBe(404);
      expect(fromDbJson((await keyRow(server, id))?.key)).toEqual(website('example.com'));
    } finally {
      server.clock.set(start);
    }
  });

  test("another parent's keychain or key, and a public keychain → notFound, nothing changed", async () => {
    const keychain = await createKeychain(server, alice, 'Alice keys');
    const aliceKey = await createKey(server, alice, keychain, website('example.com'));
    const before = await keyRow(server, aliceKey);
    const bobKeychain = await createKeychain(server, bob, 'Bob keys');

    const newId = newToken();
    const intoForeign = await server.call(
      'SaveKey',
      { isNew: true, id: newId, keychainId: keychain, key: website('evil.com') },
      { token: bob.token },
    );
    const intoPublic = await server.call(
      'SaveKey',
      { isNew: true, id: newId, keychainId: publicKeychain, key: website('evil.com') },
      { token: bob.token },
    );
    const foreignUpdate = await server.call(
      'SaveKey',
      { isNew: false, id: aliceKey, keychainId: keychain, key: website('evil.com') },
      { token: bob.token },
    );
    const moveIntoOwn = await server.call(
      'SaveKey',
      { isNew: false, id: aliceKey, keychainId: bobKeychain, key: website('evil.com') },
      { token: bob.token },
    );
    for (const result of [intoForeign, intoPublic, foreignUpdate, moveIntoOwn]) {
      expect(result.status).toBe(404);
      expect(result.body.type).toBe('notFound');
    }
    expect(await keyRow(server, newId)).toBeUndefined();
    expect(await keyRow(server, aliceKey)).toEqual(before);
    const publicKeys = await server.db
      .selectFrom('keys')
      .select('id')
      .where('keychain_id', '=', publicKeychain)
      .execute();
    expect(publicKeys).toHaveLength(PUBLIC_KEYCHAINS[0]!.keys.length);
  });
});
