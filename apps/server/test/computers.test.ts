import { describe, expect, test } from 'vitest';
import { newToken } from '../src/services/tokens.ts';
import {
  addComputerUser,
  createChild,
  recordPushes,
  reportState,
  serverWithParents,
} from './fixtures.ts';
import { createTestServer } from './harness.ts';

const { server, alice, bob } = await serverWithParents();

async function computerRow(id: string) {
  return server.db
    .selectFrom('computers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('GetDevices / GetDevice', () => {
  test('a shared computer: its children with live status, the highest app version, the model', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent, { name: 'Sam' });
    const kim = await createChild(server, parent, { name: 'Kim' });
    const samsAccount = await addComputerUser(server, parent.adminId, sam, {
      modelIdentifier: 'Mac14,2',
      serialNumber: 'C02SHARED01',
      customName: 'Family Mac',
      appVersion: '2.9.0',
    });
    const kimsAccount = await addComputerUser(server, parent.adminId, kim, {
      computerId: samsAccount.computerId,
      numericId: 502,
      appVersion: '2.10.1',
    });
    await reportState(server, samsAccount.computerUserId, { case: 'on' });
    await reportState(server, kimsAccount.computerUserId, { case: 'off' });

    const result = await server.call('GetDevice', samsAccount.computerId.toUpperCase(), {
      token: parent.token,
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: samsAccount.computerId,
      name: 'Family Mac',
      releaseChannel: 'stable',
      users: [
        { id: kim, name: 'Kim', status: { case: 'filterOff' } },
        { id: sam, name: 'Sam', status: { case: 'filterOn' } },
      ],
      appVersion: '2.10.1',
      serialNumber: 'C02SHARED01',
      modelIdentifier: 'Mac14,2',
      modelFamily: 'macBookAir',
      modelTitle: 'MacBook Air (M2, 2022)',
    });

    const list = await server.call('GetDevices', undefined, { token: parent.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([result.body]);
  });

  test('an unknown model identifier is family unknown, titled by its identifier; no name when unnamed', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent);
    const mac = await addComputerUser(server, parent.adminId, sam, { modelIdentifier: 'Mac99,9' });
    const result = await server.call('GetDevice', mac.computerId, { token: parent.token });
    expect(result.body).toMatchObject({ modelFamily: 'unknown', modelTitle: 'Mac99,9' });
    expect(result.body).not.toHaveProperty('name');
    expect(result.body.users).toEqual([{ id: sam, name: 'Sam', status: { case: 'offline' } }]);
  });

  test('filterOn with fresh presence, offline once 100 s pass without a heartbeat', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent);
    const mac = await addComputerUser(server, parent.adminId, sam);
    await reportState(server, mac.computerUserId, { case: 'on' });
    const status = async () =>
      (await server.call('GetDevice', mac.computerId, { token: parent.token })).body.users[0]
        .status;
    expect(await status()).toEqual({ case: 'filterOn' });
    server.clock.advance(99_999);
    expect(await status()).toEqual({ case: 'filterOn' });
    server.clock.advance(1);
    expect(await status()).toEqual({ case: 'offline' });
    await reportState(server, mac.computerUserId, { case: 'on' });
    expect(await status()).toEqual({ case: 'filterOn' });
  });

  test('GetDevices lists only the own computers', async () => {
    const parent = await server.signUpVerifiedParent();
    const mine = await addComputerUser(server, parent.adminId, await createChild(server, parent));
    await addComputerUser(server, bob.adminId, await createChild(server, bob));
    const result = await server.call('GetDevices', undefined, { token: parent.token });
    expect(result.body.map((d: { id: string }) => d.id)).toEqual([mine.computerId]);
  });

  test("another parent's computer is notFound", async () => {
    const mac = await addComputerUser(server, alice.adminId, await createChild(server, alice));
    const result = await server.call('GetDevice', mac.computerId, { token: bob.token });
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Computer' });
    const list = await server.call('GetDevices', undefined, { token: bob.token });
    expect(list.body.map((d: { id: string }) => d.id)).not.toContain(mac.computerId);
  });
});

describe('SaveDevice', () => {
  test('trims the name, sets the channel and pushes userUpdated to every account on the computer', async () => {
    const parent = await server.signUpVerifiedParent();
    const sam = await createChild(server, parent);
    const kim = await createChild(server, parent, { name: 'Kim' });
    const samsAccount = await addComputerUser(server, parent.adminId, sam);
    const kimsAccount = await addComputerUser(server, parent.adminId, kim, {
      computerId: samsAccount.computerId,
      numericId: 502,
    });
    const elsewhere = await addComputerUser(server, parent.adminId, sam);
    const pushes = recordPushes(server, [
      samsAccount.computerUserId,
      kimsAccount.computerUserId,
      elsewhere.computerUserId,
    ]);
    try {
      const result = await server.call(
        'SaveDevice',
        { id: samsAccount.computerId, name: '  Kitchen Mac  ', releaseChannel: 'beta' },
        { token: parent.token },
      );
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(pushes.received).toHaveLength(2);
      expect(pushes.received).toEqual(
        expect.arrayContaining([
          { computerUserId: samsAccount.computerUserId, case: 'userUpdated' },
          { computerUserId: kimsAccount.computerUserId, case: 'userUpdated' },
        ]),
      );
    } finally {
      pushes.stop();
    }
    const device = (await server.call('GetDevice', samsAccount.computerId, { token: parent.token }))
      .body;
    expect(device).toMatchObject({ name: 'Kitchen Mac', releaseChannel: 'beta' });
    const user = (await server.call('GetUser', kim, { token: parent.token })).body;
    expect(user.devices[0].customName).toBe('Kitchen Mac');
  });

  test.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['blank', '   '],
  ])('an %s name clears the custom name', async (_kind, name) => {
    const parent = await server.signUpVerifiedParent();
    const mac = await addComputerUser(server, parent.adminId, await createChild(server, parent), {
      customName: 'Old name',
    });
    const input: Record<string, unknown> = { id: mac.computerId, releaseChannel: 'stable' };
    if (name !== undefined) input.name = name;
    expect((await server.call('SaveDevice', input, { token: parent.token })).status).toBe(200);
    expect((await computerRow(mac.computerId)).custom_name).toBeNull();
    const device = (await server.call('GetDevice', mac.computerId, { token: parent.token })).body;
    expect(device).not.toHaveProperty('name');
  });

  test('a name over 100 characters or an unknown channel is refused', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await addComputerUser(server, parent.adminId, await createChild(server, parent), {
      customName: 'Kept',
    });
    const long = await server.call(
      'SaveDevice',
      { id: mac.computerId, name: 'x'.repeat(101), releaseChannel: 'stable' },
      { token: parent.token },
    );
    expect(long.status).toBe(400);
    const channel = await server.call(
      'SaveDevice',
      { id: mac.computerId, name: 'Fine', releaseChannel: 'nightly' },
      { token: parent.token },
    );
    expect(channel.status).toBe(400);
    expect((await computerRow(mac.computerId)).custom_name).toBe('Kept');
  });

  test("another parent's computer is notFound and unchanged; no push", async () => {
    const mac = await addComputerUser(server, alice.adminId, await createChild(server, alice), {
      customName: 'Alice Mac',
    });
    const pushes = recordPushes(server, [mac.computerUserId]);
    try {
      const result = await server.call(
        'SaveDevice',
        { id: mac.computerId, name: 'Taken', releaseChannel: 'canary' },
        { token: bob.token },
      );
      expect(result.status).toBe(404);
      expect(pushes.received).toEqual([]);
    } finally {
      pushes.stop();
    }
    const row = await computerRow(mac.computerId);
    expect(row).toMatchObject({ custom_name: 'Alice Mac', app_release_channel: 'stable' });
  });

  test('an unknown computer is notFound', async () => {
    const result = await server.call(
      'SaveDevice',
      { id: newToken(), releaseChannel: 'stable' },
      { token: alice.token },
    );
    expect(result.status).toBe(404);
  });
});

describe('LatestAppVersions', () => {
  test('0.0.0 everywhere when no release is configured', async () => {
    const result = await server.call('LatestAppVersions', undefined, { token: alice.token });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ stable: '0.0.0', beta: '0.0.0', canary: '0.0.0' });
  });

  test('per channel, the highest release on it or a more stable one', async () => {
    const configured = await createTestServer({
      env: { RELEASE_STABLE: '2.10.0', RELEASE_BETA: '2.9.5', RELEASE_CANARY: '2.11.0' },
    });
    try {
      const parent = await configured.signUpVerifiedParent();
      const result = await configured.call('LatestAppVersions', undefined, { token: parent.token });
      expect(result.status).toBe(200);
      // beta's own 2.9.5 is older than stable's 2.10.0, which beta computers get too
      expect(result.body).toEqual({ stable: '2.10.0', beta: '2.10.0', canary: '2.11.0' });
      const rows = await configured.db
        .selectFrom('releases')
        .select(['semver', 'channel'])
        .execute();
      expect(rows).toHaveLength(3);
    } finally {
      await configured.close();
    }
  });

  test('needs a session', async () => {
    expect((await server.call('LatestAppVersions')).status).toBe(401);
  });
});
