import { describe, expect, test } from 'vitest';
import {
  addComputerUser,
  addKeychain,
  addMacToken,
  childRow,
  createChild,
  newChildInput,
  recordPushes,
  reportState,
  securityEvents,
  serverWithParents,
  type Parent,
} from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

function deleteEntity(parent: Parent, type: string, id: string) {
  return server.call('DeleteEntity_v2', { id, type }, { token: parent.token });
}

function heartbeat(token: string) {
  return server.call('Heartbeat', { heartbeat: {} }, { namespace: 'macos-app', token });
}

async function computerExists(id: string) {
  return (
    (await server.db
      .selectFrom('computers')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst()) !== undefined
  );
}

describe('DeleteEntity_v2 child', () => {
  test('deletes the child and its data, pushes userDeleted first, deletes computers left without users', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent, { name: 'Sam' });
    const kim = await createChild(server, parent, { name: 'Kim' });
    const keychain = await addKeychain(server, parent.adminId);
    await server.call(
      'SaveUser',
      newChildInput({
        id: sam,
        isNew: false,
        keychains: [{ id: keychain }],
        blockedApps: [{ id: crypto.randomUUID(), identifier: 'Steam' }],
      }),
      { token: parent.token },
    );
    const own = await addComputerUser(server, parent.adminId, sam);
    // a shared family Mac: Sam's account and Kim's account
    const shared = await addComputerUser(server, parent.adminId, sam, { numericId: 501 });
    const kimsAccount = await addComputerUser(server, parent.adminId, kim, {
      computerId: shared.computerId,
      numericId: 502,
    });
    const token = await addMacToken(server, sam, own.computerUserId);
    await reportState(server, own.computerUserId, { case: 'on' });
    await server.db
      .insertInto('connection_codes')
      .values({
        id: crypto.randomUUID(),
        code_hash: 'x'.repeat(64),
        child_id: sam,
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await heartbeat(token)).status).toBe(200);

    const pushes = recordPushes(server, [
      own.computerUserId,
      shared.computerUserId,
      kimsAccount.computerUserId,
    ]);
    try {
      const result = await deleteEntity(parent, 'child', sam.toUpperCase());
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(pushes.received).toHaveLength(2);
      expect(pushes.received).toEqual(
        expect.arrayContaining([
          { computerUserId: own.computerUserId, case: 'userDeleted' },
          { computerUserId: shared.computerUserId, case: 'userDeleted' },
        ]),
      );
    } finally {
      pushes.stop();
    }

    expect(await childRow(server, sam)).toBeUndefined();
    for (const table of [
      'computer_users',
      'child_keychains',
      'blocked_mac_apps',
      'connection_codes',
      'mac_app_tokens',
    ] as const) {
      const rows = await server.db
        .selectFrom(table)
        .select('id')
        .where('child_id', '=', sam)
        .execute();
      expect(rows, table).toEqual([]);
    }
    expect(
      await server.db
        .selectFrom('device_presence')
        .select('computer_user_id')
        .where('computer_user_id', '=', own.computerUserId)
        .execute(),
    ).toEqual([]);
    expect(await computerExists(own.computerId)).toBe(false);
    expect(await computerExists(shared.computerId)).toBe(true); // Kim still uses it
    expect(await childRow(server, kim)).toBeDefined();
    // the keychain itself stays
    expect(
      await server.db
        .selectFrom('keychains')
        .select('id')
        .where('id', '=', keychain)
        .executeTakeFirst(),
    ).toBeDefined();

    const refused = await heartbeat(token);
    expect(refused.status).toBe(401);
    expect(refused.body.id).toBe('6e88d0de');

    const events = await securityEvents(server, parent.adminId, 'childDeleted');
    expect(events.map((e) => e.detail)).toEqual(['name: Sam']);
  });

  test("another parent's child is notFound and nothing is deleted", async () => {
    const sam = await createChild(server, alice);
    const mac = await addComputerUser(server, alice.adminId, sam);
    const result = await deleteEntity(bob, 'child', sam);
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Child' });
    expect(await childRow(server, sam)).toBeDefined();
    expect(await computerExists(mac.computerId)).toBe(true);
    expect(await securityEvents(server, bob.adminId, 'childDeleted')).toEqual([]);
  });
});

describe('DeleteEntity_v2 computerUser', () => {
  test('unlinks the Mac account: push first, token refused at once, computer deleted when empty', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent, { name: 'Sam' });
    const mac = await addComputerUser(server, parent.adminId, sam, { serialNumber: 'C02SERIAL01' });
    const token = await addMacToken(server, sam, mac.computerUserId);
    expect((await heartbeat(token)).status).toBe(200);

    const pushes = recordPushes(server, [mac.computerUserId]);
    try {
      const result = await deleteEntity(parent, 'computerUser', mac.computerUserId);
      expect(result.status).toBe(200);
      expect(pushes.received).toEqual([
        { computerUserId: mac.computerUserId, case: 'userDeleted' },
      ]);
    } finally {
      pushes.stop();
    }

    const refused = await heartbeat(token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ id: '6e88d0de', appTag: 'userTokenNotFound' });
    expect(await computerExists(mac.computerId)).toBe(false);
    expect(await childRow(server, sam)).toBeDefined();

    const events = await securityEvents(server, parent.adminId, 'childComputerDeleted');
    expect(events.map((e) => e.detail)).toEqual(['child: Sam, computer serial: C02SERIAL01']);

    const user = await server.call('GetUser', sam, { token: parent.token });
    expect(user.body.devices).toEqual([]);
  });

  test('a computer still used by another account stays', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent);
    const kim = await createChild(server, parent, { name: 'Kim' });
    const samsAccount = await addComputerUser(server, parent.adminId, sam);
    const kimsAccount = await addComputerUser(server, parent.adminId, kim, {
      computerId: samsAccount.computerId,
      numericId: 502,
    });
    const kimsToken = await addMacToken(server, kim, kimsAccount.computerUserId);
    expect((await deleteEntity(parent, 'computerUser', samsAccount.computerUserId)).status).toBe(
      200,
    );
    expect(await computerExists(samsAccount.computerId)).toBe(true);
    expect((await heartbeat(kimsToken)).status).toBe(200);
  });

  test("another parent's computer user is notFound; it and its token keep working", async () => {
    const sam = await createChild(server, alice);
    const mac = await addComputerUser(server, alice.adminId, sam);
    const token = await addMacToken(server, sam, mac.computerUserId);
    const result = await deleteEntity(bob, 'computerUser', mac.computerUserId);
    expect(result.status).toBe(404);
    expect(result.body.type).toBe('notFound');
    expect((await heartbeat(token)).status).toBe(200);
    expect(await computerExists(mac.computerId)).toBe(true);
  });
});
