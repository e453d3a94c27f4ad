import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PUBLIC_KEYCHAINS } from '../src/db/migrations/0003_public_keychains.ts';
import { HOUR } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import { createTestServer, type TestServer } from './harness.ts';
import {
  addChild,
  addChildWithComputer,
  addComputerUser,
  AFTER_SCHOOL,
  assign,
  createKey,
  createKeychain,
  keychainRow,
  keyRow,
  recordPushes,
  serverWithParents,
  website,
  type Parent,
} from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

const publicKeychain = PUBLIC_KEYCHAINS[1]!.id;

async function assignments(childId: string) {
  const rows = await server.db
    .selectFrom('child_keychains')
    .select(['keychain_id', 'schedule'])
    .where('child_id', '=', childId)
    .execute();
  return rows;
}

const deleteEntity = (parent: Parent, type: 'key' | 'keychain', id: string) =>
  server.call('DeleteEntity_v2', { type, id }, { token: parent.token });

describe('DeleteEntity_v2 key', () => {
  test('hard-deletes a key of an own keychain and pushes userUpdated to the holders', async () => {
    const keychain = await createKeychain(server, alice, 'Delete a key');
    const key = await createKey(server, alice, keychain, website('example.com'));
    const kept = await createKey(server, alice, keychain, website('example.org'));
    const { childId: child, computerUserId: mac } = await addChildWithComputer(
      server,
      alice.adminId,
    );
    await assign(server, child, keychain);
    const pushes = recordPushes(server, [mac]);
    try {
      const result = await deleteEntity(alice, 'key', key);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(await keyRow(server, key)).toBeUndefined();
      expect(await keyRow(server, kept)).toBeDefined();
      expect(pushes.to(mac)).toEqual([{ case: 'userUpdated' }]);
    } finally {
      pushes.stop();
    }
  });

  test('an expired key can still be removed', async () => {
    const keychain = await createKeychain(server, alice, 'Old keys');
    const key = await createKey(server, alice, keychain, website('example.com'), {
      expiration: new Date(server.clock.now().getTime() + HOUR).toISOString(),
    });
    const start = server.clock.now();
    server.clock.advance(2 * HOUR);
    try {
      expect((await deleteEntity(alice, 'key', key)).status).toBe(200);
      expect(await keyRow(server, key)).toBeUndefined();
    } finally {
      server.clock.set(start);
    }
  });

  test("another parent's key, a public keychain's key and an unknown id → notFound, nothing deleted", async () => {
    const keychain = await createKeychain(server, alice, 'Keep my key');
    const key = await createKey(server, alice, keychain, website('example.com'));
    const publicKey = await server.db
      .selectFrom('keys')
      .select('id')
      .where('keychain_id', '=', publicKeychain)
      .executeTakeFirstOrThrow();
    for (const id of [key, publicKey.id, newToken()]) {
      const result = await deleteEntity(bob, 'key', id);
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Key' });
    }
    expect(await keyRow(server, key)).toBeDefined();
    expect(await keyRow(server, publicKey.id)).toBeDefined();
  });
});

describe('DeleteEntity_v2 keychain', () => {
  test('deletes an own keychain with its keys and assignments, pushing to holders first', async () => {
    const keychain = await createKeychain(server, alice, 'Doomed');
    const key = await createKey(server, alice, keychain, website('example.com'));
    const { childId: child, computerUserId: mac } = await addChildWithComputer(
      server,
      alice.adminId,
    );
    const { computerUserId: bystanderMac } = await addChildWithComputer(server, alice.adminId, {
      name: 'Bystander',
    });
    await assign(server, child, keychain);
    const pushes = recordPushes(server, [mac, bystanderMac]);
    try {
      const result = await deleteEntity(alice, 'keychain', keychain);
      expect(result.status).toBe(200);
      expect(await keychainRow(server, keychain)).toBeUndefined();
      expect(await keyRow(server, key)).toBeUndefined();
      expect(await assignments(child)).toEqual([]);
      // the holders were found although the assignment rows are gone now
      expect(pushes.to(mac)).toEqual([{ case: 'userUpdated' }]);
      expect(pushes.to(bystanderMac)).toEqual([]);
    } finally {
      pushes.stop();
    }
  });

  test("another parent's keychain, a public keychain and an unknown id → notFound, nothing deleted", async () => {
    const keychain = await createKeychain(server, alice, 'Not yours');
    const key = await createKey(server, alice, keychain, website('example.com'));
    for (const id of [keychain, publicKeychain, newToken()]) {
      const result = await deleteEntity(bob, 'keychain', id);
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Keychain' });
    }
    expect(await keychainRow(server, keychain)).toBeDefined();
    expect(await keyRow(server, key)).toBeDefined();
    expect(await keychainRow(server, publicKeychain)).toBeDefined();
  });
});

describe('ToggleChildKeychain', () => {
  test('assigns an own keychain with no schedule, then unassigns it; pushes each time', async () => {
    const keychain = await createKeychain(server, alice, 'Toggle');
    const { childId: child, computerUserId: mac } = await addChildWithComputer(
      server,
      alice.adminId,
    );
    const pushes = recordPushes(server, [mac]);
    try {
      const on = await server.call(
        'ToggleChildKeychain',
        { keychainId: keychain, childId: child },
        { token: alice.token },
      );
      expect(on.status).toBe(200);
      expect(await assignments(child)).toEqual([{ keychain_id: keychain, schedule: null }]);

      const all = await server.call('GetAdminKeychains', undefined, { token: alice.token });
      const summary = all.body.keychains.find(
        (k: { summary: { id: string } }) => k.summary.id === keychain,
      );
      expect(summary.children).toEqual([child]);

      const off = await server.call(
        'ToggleChildKeychain',
        { keychainId: keychain.toUpperCase(), childId: child.toUpperCase() },
        { token: alice.token },
      );
      expect(off.status).toBe(200);
      expect(await assignments(child)).toEqual([]);
      expect(pushes.to(mac)).toEqual([{ case: 'userUpdated' }, { case: 'userUpdated' }]);
    } finally {
      pushes.stop();
    }
  });

  test('a scheduled assignment toggled off loses its schedule; toggled on again it is always active', async () => {
    // The documented decision: the dashboard asks before this removal, the server does not guess.
    const keychain = await createKeychain(server, alice, 'After school');
    const child = await addChild(server, alice.adminId);
    await assign(server, child, keychain, AFTER_SCHOOL);
    const toggle = () =>
      server.call(
        'ToggleChildKeychain',
        { keychainId: keychain, childId: child },
        {
          token: alice.token,
        },
      );
    expect((await toggle()).status).toBe(200);
    expect(await assignments(child)).toEqual([]);
    expect((await toggle()).status).toBe(200);
    expect(await assignments(child)).toEqual([{ keychain_id: keychain, schedule: null }]);
    const user = await server.call('GetUser', child, { token: alice.token });
    expect(user.body.keychains).toEqual([
      expect.not.objectContaining({ schedule: expect.anything() }),
    ]);
  });

  test('a public keychain of the catalogue can be assigned and is then held', async () => {
    const child = await addChild(server, bob.adminId);
    const result = await server.call(
      'ToggleChildKeychain',
      { keychainId: publicKeychain, childId: child },
      { token: bob.token },
    );
    expect(result.status).toBe(200);
    expect(await assignments(child)).toEqual([{ keychain_id: publicKeychain, schedule: null }]);
    const mac = (await addComputerUser(server, bob.adminId, child)).computerUserId;
    const pushes = recordPushes(server, [mac]);
    try {
      await server.app.push.toKeychainHolders(publicKeychain, { case: 'userUpdated' });
      expect(pushes.to(mac)).toEqual([{ case: 'userUpdated' }]);
    } finally {
      pushes.stop();
    }
  });

  test("another parent's child or private keychain → notFound, no assignment made or removed", async () => {
    const aliceKeychain = await createKeychain(server, alice, 'Alice toggles');
    const aliceChild = await addChild(server, alice.adminId, { name: 'Alice kid' });
    await assign(server, aliceChild, aliceKeychain);
    const bobChild = await addChild(server, bob.adminId, { name: 'Bob kid' });
    const bobKeychain = await createKeychain(server, bob, 'Bob keychain');

    const attempts = [
      { keychainId: aliceKeychain, childId: aliceChild }, // would unassign Alice's
      { keychainId: bobKeychain, childId: aliceChild },
      { keychainId: publicKeychain, childId: aliceChild },
      { keychainId: aliceKeychain, childId: bobChild },
      { keychainId: newToken(), childId: bobChild },
    ];
    for (const input of attempts) {
      const result = await server.call('ToggleChildKeychain', input, { token: bob.token });
      expect(result.status).toBe(404);
      expect(result.body.type).toBe('notFound');
    }
    expect(await assignments(aliceChild)).toEqual([{ keychain_id: aliceKeychain, schedule: null }]);
    expect(await assignments(bobChild)).toEqual([]);
  });
});

describe('RequestPublicKeychain', () => {
  const requestsOf = (parentId: string) =>
    server.db
      .selectFrom('keychain_requests')
      .select(['search_query', 'description'])
      .where('parent_id', '=', parentId)
      .execute();

  test('without OPERATOR_EMAIL the request is stored (for the requester) and no email goes out', async () => {
    const parent = await server.signUpVerifiedParent();
    const mailsBefore = server.mails.length;
    const result = await server.call(
      'RequestPublicKeychain',
      { searchQuery: ' duolingo ', description: ' Language practice for French ' },
      { token: parent.token },
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expect(await requestsOf(parent.adminId)).toEqual([
      { search_query: 'duolingo', description: 'Language practice for French' },
    ]);
    expect(await requestsOf(bob.adminId)).toEqual([]);
    expect(server.mails.length).toBe(mailsBefore);
  });

  test('a blank description → 400, nothing stored', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call(
      'RequestPublicKeychain',
      { searchQuery: 'duolingo', description: '   ' },
      { token: parent.token },
    );
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe('Please describe the keychain you need.');
    expect(await requestsOf(parent.adminId)).toEqual([]);
  });

  test('a search query over 255 characters → 400', async () => {
    const result = await server.call(
      'RequestPublicKeychain',
      { searchQuery: 'x'.repeat(256), description: 'ok' },
      { token: bob.token },
    );
    expect(result.status).toBe(400);
  });

  test('needs a session: nothing stored for anyone', async () => {
    const before = await server.db.selectFrom('keychain_requests').select('id').execute();
    const result = await server.call('RequestPublicKeychain', {
      searchQuery: 'x',
      description: 'y',
    });
    expect(result.status).toBe(401);
    const after = await server.db.selectFrom('keychain_requests').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});

describe('RequestPublicKeychain with OPERATOR_EMAIL', () => {
  let mailing: TestServer;
  beforeAll(async () => {
    mailing = await createTestServer({ env: { OPERATOR_EMAIL: 'operator@keyward.example' } });
  });
  afterAll(async () => mailing.close());

  test('emails the request to the operator', async () => {
    const parent = await mailing.signUpVerifiedParent();
    const result = await mailing.call(
      'RequestPublicKeychain',
      { searchQuery: 'duolingo', description: 'Language practice' },
      { token: parent.token },
    );
    expect(result.status).toBe(200);
    const mail = mailing.lastEmailTo('operator@keyward.example', 'keychain-request');
    expect(mail.text).toContain(parent.email);
    expect(mail.text).toContain('duolingo');
    expect(mail.text).toContain('Language practice');
    const rows = await mailing.db
      .selectFrom('keychain_requests')
      .select('parent_id')
      .where('parent_id', '=', parent.adminId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
