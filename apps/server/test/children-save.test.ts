import { describe, expect, test } from 'vitest';
import { fromDbBool, fromDbJson } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addComputerUser,
  addKeychain,
  AFTER_SCHOOL,
  childRow,
  createChild,
  newChildInput,
  recordPushes,
  securityEvents,
  serverWithParents,
  type Parent,
} from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

async function getUser(parent: Parent, id: string) {
  const result = await server.call('GetUser', id, { token: parent.token });
  expect(result.status).toBe(200);
  return result.body;
}

async function save(parent: Parent, input: Record<string, unknown>) {
  return server.call('SaveUser', input, { token: parent.token });
}

describe('SaveUser: new child', () => {
  test('creates the child with exactly the client id (any letter case), trimmed name, childAdded', async () => {
    const parent = await server.signUpVerifiedParent();
    const id = newToken();
    const result = await save(parent, newChildInput({ id: id.toUpperCase(), name: '  Sam  ' }));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });

    const row = await childRow(server, id);
    expect(row).toMatchObject({ id, parent_id: parent.adminId, name: 'Sam' });
    expect(row?.screenshots_resolution).toBe(1000);
    expect(row?.screenshots_frequency).toBe(120);
    expect(fromDbBool(row?.keylogging_enabled)).toBe(false);
    expect(row?.downtime).toBeNull();

    const events = await securityEvents(server, parent.adminId, 'childAdded');
    expect(events).toEqual([
      expect.objectContaining({ detail: 'name: Sam', computer_user_id: null }),
    ]);
    expect(events[0]?.ip_address).toBeTruthy();
  });

  test('an id that already exists is answered as done for its parent, refused for another, and the child is untouched', async () => {
    const id = await createChild(server, alice, { name: 'Original' });
    // issue 20: the same create sent again (double click, retry) is idempotent on its id
    const mine = await save(alice, newChildInput({ id, name: 'Original' }));
    expect(mine.status).toBe(200);
    // issue 31: with other content it is not the same create (before: 200, keeping 'Original')
    const replaced = await save(alice, newChildInput({ id, name: 'Replaced' }));
    expect(replaced.status).toBe(400);
    expect(replaced.body.userMessage).toMatch(
      /already saved with other details\. It is listed as it was saved/,
    );

    // even when the existing id belongs to someone else
    const theirs = await save(bob, newChildInput({ id, name: 'Stolen' }));
    expect(theirs.status).toBe(400);

    const row = await childRow(server, id);
    expect(row).toMatchObject({ name: 'Original', parent_id: alice.adminId });
  });

  test.each([
    ['empty', ''],
    ['blank', '   \t '],
  ])('a %s name is refused with a message for the parent', async (_kind, name) => {
    const input = newChildInput({ name });
    const result = await save(alice, input);
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe('Please enter a name for your child.');
    expect(await childRow(server, input.id)).toBeUndefined();
  });

  test('a name over 100 characters is refused', async () => {
    const input = newChildInput({ name: 'x'.repeat(101) });
    const result = await save(alice, input);
    expect(result.status).toBe(400);
    expect(await childRow(server, input.id)).toBeUndefined();
  });

  test('a 100-character name is accepted', async () => {
    const input = newChildInput({ name: 'x'.repeat(100) });
    expect((await save(alice, input)).status).toBe(200);
  });

  test.each([9, 0, -5, 9.5])('a screenshot frequency of %s s is refused', async (frequency) => {
    const input = newChildInput({ screenshotsFrequency: frequency });
    const result = await save(alice, input);
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(await childRow(server, input.id)).toBeUndefined();
  });

  test('a screenshot frequency of 10 s is accepted', async () => {
    const input = newChildInput({ screenshotsFrequency: 10 });
    expect((await save(alice, input)).status).toBe(200);
  });

  test.each([199, 4001, 1, 0, -200, 10_000, 1000.5])(
    'a screenshot resolution of %s px is refused with the limits in words',
    async (screenshotsResolution) => {
      const input = newChildInput({ screenshotsResolution });
      const result = await save(alice, input);
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        type: 'badRequest',
        userMessage: 'Screenshot resolution must be between 200 and 4,000 pixels.',
      });
      expect(await childRow(server, input.id)).toBeUndefined();
    },
  );

  test.each([200, 4000])('a screenshot resolution of %s px is accepted', async (resolution) => {
    const input = newChildInput({ screenshotsResolution: resolution });
    expect((await save(alice, input)).status).toBe(200);
    expect((await childRow(server, input.id))?.screenshots_resolution).toBe(resolution);
  });
});

describe('SaveUser: screenshot resolution on an existing child', () => {
  test('an out-of-range resolution is refused and the saved one stays', async () => {
    const parent = await server.signUpVerifiedParent();
    const id = await createChild(server, parent, { screenshotsResolution: 1200 });
    const result = await save(
      parent,
      newChildInput({ id, isNew: false, name: 'Changed', screenshotsResolution: 5000 }),
    );
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe(
      'Screenshot resolution must be between 200 and 4,000 pixels.',
    );
    expect(await childRow(server, id)).toMatchObject({ name: 'Sam', screenshots_resolution: 1200 });
  });
});

describe('SaveUser: update', () => {
  test('changes settings and downtime; absent downtime removes it', async () => {
    const parent = await server.signUpVerifiedParent();
    const id = await createChild(server, parent, {
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
    });
    const result = await save(parent, {
      ...newChildInput({ id, isNew: false, name: 'Samuel' }),
      keyloggingEnabled: true,
      screenshotsEnabled: true,
      screenshotsResolution: 1200,
      screenshotsFrequency: 30,
      showSuspensionActivity: true,
    });
    expect(result.status).toBe(200);
    const user = await getUser(parent, id);
    expect(user).toMatchObject({
      name: 'Samuel',
      keyloggingEnabled: true,
      screenshotsEnabled: true,
      screenshotsResolution: 1200,
      screenshotsFrequency: 30,
      showSuspensionActivity: true,
    });
    expect(user).not.toHaveProperty('downtime');
    // nothing decreased
    expect(await securityEvents(server, parent.adminId, 'monitoringDecreased')).toEqual([]);
  });

  test('monitoringDecreased lists every decrease', async () => {
    const parent = await server.signUpVerifiedParent();
    const id = await createChild(server, parent, {
      keyloggingEnabled: true,
      screenshotsEnabled: true,
      screenshotsFrequency: 60,
    });
    const result = await save(
      parent,
      newChildInput({ id, isNew: false, screenshotsEnabled: true, screenshotsFrequency: 300 }),
    );
    expect(result.status).toBe(200);
    const events = await securityEvents(server, parent.adminId, 'monitoringDecreased');
    expect(events).toHaveLength(1);
    expect(events[0]?.detail).toBe(
      'child: Sam; keylogging turned off; screenshot interval raised from 60 s to 300 s',
    );
  });

  test('a child that does not exist is notFound, not created', async () => {
    const id = newToken();
    const result = await save(alice, newChildInput({ id, isNew: false }));
    expect(result.status).toBe(404);
    expect(await childRow(server, id)).toBeUndefined();
  });

  test("another parent's child is notFound and unchanged", async () => {
    const id = await createChild(server, alice, { name: 'Alices' });
    const result = await save(
      bob,
      newChildInput({ id, isNew: false, name: 'Bobs', keyloggingEnabled: true }),
    );
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Child' });
    const row = await childRow(server, id);
    expect(row).toMatchObject({ name: 'Alices', parent_id: alice.adminId });
    expect(fromDbBool(row?.keylogging_enabled)).toBe(false);
  });

  test('pushes userUpdated to every Mac of the child, none of another child', async () => {
    const parent = await server.signUpVerifiedParent();
    const id = await createChild(server, parent);
    const other = await createChild(server, parent, { name: 'Kim' });
    const macA = await addComputerUser(server, parent.adminId, id);
    const macB = await addComputerUser(server, parent.adminId, id);
    const otherMac = await addComputerUser(server, parent.adminId, other);
    const pushes = recordPushes(server, [
      macA.computerUserId,
      macB.computerUserId,
      otherMac.computerUserId,
    ]);
    try {
      expect((await save(parent, newChildInput({ id, isNew: false }))).status).toBe(200);
      expect(pushes.received).toEqual(
        expect.arrayContaining([
          { computerUserId: macA.computerUserId, case: 'userUpdated' },
          { computerUserId: macB.computerUserId, case: 'userUpdated' },
        ]),
      );
      expect(pushes.received).toHaveLength(2);
    } finally {
      pushes.stop();
    }
  });
});

describe('SaveUser: keychains', () => {
  test('own and public keychains are assigned with schedules; keychainsChanged only when the list differs', async () => {
    const parent = await server.signUpVerifiedParent();
    const own = await addKeychain(server, parent.adminId, { name: 'Homework' });
    const shared = await addKeychain(server, bob.adminId, { name: 'Public', isPublic: true });
    const id = await createChild(server, parent);
    const keychains = [{ id: own, schedule: AFTER_SCHOOL }, { id: shared.toUpperCase() }];
    expect((await save(parent, newChildInput({ id, isNew: false, keychains }))).status).toBe(200);
    const user = await getUser(parent, id);
    expect(user.keychains).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: own, name: 'Homework', schedule: AFTER_SCHOOL }),
        expect.objectContaining({
          id: shared,
          name: 'Public',
          isPublic: true,
          parentId: bob.adminId,
        }),
      ]),
    );
    expect(user.keychains.find((k: { id: string }) => k.id === shared)).not.toHaveProperty(
      'schedule',
    );
    expect(await securityEvents(server, parent.adminId, 'keychainsChanged')).toHaveLength(1);

    // the same list in another order: no change, no event
    const reordered = [{ id: shared }, { id: own, schedule: AFTER_SCHOOL }];
    expect(
      (await save(parent, newChildInput({ id, isNew: false, keychains: reordered }))).status,
    ).toBe(200);
    expect(await securityEvents(server, parent.adminId, 'keychainsChanged')).toHaveLength(1);

    // a schedule change is a change
    expect(
      (await save(parent, newChildInput({ id, isNew: false, keychains: [{ id: own }] }))).status,
    ).toBe(200);
    const after = await getUser(parent, id);
    expect(after.keychains).toHaveLength(1);
    expect(after.keychains[0]).not.toHaveProperty('schedule');
    expect(await securityEvents(server, parent.adminId, 'keychainsChanged')).toHaveLength(2);
  });

  test("another parent's private keychain is notFound and nothing is saved", async () => {
    const parent = await server.signUpVerifiedParent();
    const id = await createChild(server, parent, { name: 'Before' });
    const private_ = await addKeychain(server, bob.adminId, { name: 'Private' });
    const result = await save(
      parent,
      newChildInput({ id, isNew: false, name: 'After', keychains: [{ id: private_ }] }),
    );
    expect(result.status).toBe(404);
    expect(result.body.entityName).toBe('Keychain');
    const user = await getUser(parent, id);
    expect(user.name).toBe('Before');
    expect(user.keychains).toEqual([]);

    const created = newChildInput({ keychains: [{ id: private_ }] });
    expect((await save(parent, created)).status).toBe(404);
    expect(await childRow(server, created.id)).toBeUndefined();
  });
});

describe('SaveUser: blocked apps', () => {
  test('absent leaves them alone; a different list replaces them; an empty list clears them', async () => {
    const parent = await server.signUpVerifiedParent();
    const steam = { id: newToken(), identifier: 'com.valvesoftware.steam' };
    const id = await createChild(server, parent, { blockedApps: [steam] });
    expect((await getUser(parent, id)).blockedApps).toEqual([steam]);
    const eventsAtStart = (await securityEvents(server, parent.adminId, 'blockedAppsChanged'))
      .length;

    // absent: unchanged, no event
    expect((await save(parent, newChildInput({ id, isNew: false, name: 'Renamed' }))).status).toBe(
      200,
    );
    expect((await getUser(parent, id)).blockedApps).toEqual([steam]);

    // the same list (schedule null = absent): no event
    expect(
      (
        await save(
          parent,
          newChildInput({ id, isNew: false, blockedApps: [{ ...steam, schedule: null }] }),
        )
      ).status,
    ).toBe(200);
    expect(await securityEvents(server, parent.adminId, 'blockedAppsChanged')).toHaveLength(
      eventsAtStart,
    );

    // replaced
    const roblox = { id: newToken(), identifier: '  Roblox ', schedule: AFTER_SCHOOL };
    expect(
      (await save(parent, newChildInput({ id, isNew: false, blockedApps: [roblox] }))).status,
    ).toBe(200);
    expect((await getUser(parent, id)).blockedApps).toEqual([
      { id: roblox.id, identifier: 'Roblox', schedule: AFTER_SCHOOL },
    ]);
    const events = await securityEvents(server, parent.adminId, 'blockedAppsChanged');
    expect(events).toHaveLength(eventsAtStart + 1);
    expect(events.at(-1)?.detail).toBe('child: Sam; blocked apps: Roblox');

    // cleared
    expect((await save(parent, newChildInput({ id, isNew: false, blockedApps: [] }))).status).toBe(
      200,
    );
    expect((await getUser(parent, id)).blockedApps).toEqual([]);
    const rows = await server.db
      .selectFrom('blocked_mac_apps')
      .select('schedule')
      .where('child_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
  });

  test('a blank identifier is refused and nothing changes', async () => {
    const parent = await server.signUpVerifiedParent();
    const steam = { id: newToken(), identifier: 'Steam' };
    const id = await createChild(server, parent, { blockedApps: [steam] });
    const result = await save(
      parent,
      newChildInput({
        id,
        isNew: false,
        name: 'Changed',
        blockedApps: [{ id: newToken(), identifier: ' ' }],
      }),
    );
    expect(result.status).toBe(400);
    const user = await getUser(parent, id);
    expect(user.name).toBe('Sam');
    expect(user.blockedApps).toEqual([steam]);
  });

  test.each([
    ['same letter case', 'zoom', 'zoom', "'zoom' is already in the blocked apps."],
    ['other letter case', 'Steam', ' STEAM ', "'Steam' is already in the blocked apps."],
    ['bundle ids', 'us.zoom.xos', 'US.Zoom.XOS', "'us.zoom.xos' is already in the blocked apps."],
  ])(
    'the same app twice (%s) is refused with a message; nothing changes',
    async (_case, first, second, message) => {
      const parent = await server.signUpVerifiedParent();
      const arc = { id: newToken(), identifier: 'Arc' };
      const id = await createChild(server, parent, { blockedApps: [arc] });
      const result = await save(
        parent,
        newChildInput({
          id,
          isNew: false,
          name: 'Changed',
          blockedApps: [
            { id: newToken(), identifier: first },
            arc,
            { id: newToken(), identifier: second },
          ],
        }),
      );
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ type: 'badRequest', userMessage: message });
      const user = await getUser(parent, id);
      expect(user.name).toBe('Sam');
      expect(user.blockedApps).toEqual([arc]);
    },
  );

  test('a new child with the same app twice is not created', async () => {
    const input = newChildInput({
      blockedApps: [
        { id: newToken(), identifier: 'Minecraft' },
        { id: newToken(), identifier: 'minecraft' },
      ],
    });
    const result = await save(alice, input);
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe("'Minecraft' is already in the blocked apps.");
    expect(await childRow(server, input.id)).toBeUndefined();
  });

  test("a blocked-app id of another parent's child is refused; theirs is untouched", async () => {
    const steam = { id: newToken(), identifier: 'Steam' };
    const alicesChild = await createChild(server, alice, { blockedApps: [steam] });
    const bobsChild = await createChild(server, bob);
    const result = await save(
      bob,
      newChildInput({
        id: bobsChild,
        isNew: false,
        name: 'Changed',
        blockedApps: [{ id: steam.id, identifier: 'Mine' }],
      }),
    );
    expect(result.status).toBe(400);
    expect((await getUser(alice, alicesChild)).blockedApps).toEqual([steam]);
    expect((await getUser(bob, bobsChild)).name).toBe('Sam');
  });

  test('stored schedules are JSON', async () => {
    const parent = await server.signUpVerifiedParent();
    const id = await createChild(server, parent, {
      blockedApps: [{ id: newToken(), identifier: 'Steam', schedule: AFTER_SCHOOL }],
    });
    const row = await server.db
      .selectFrom('blocked_mac_apps')
      .select('schedule')
      .where('child_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(fromDbJson(row.schedule)).toEqual(AFTER_SCHOOL);
  });
});

test('blocked apps come back in the order the parent saved them', async () => {
  const parent = await server.signUpVerifiedParent();
  const apps = [
    { id: newToken(), identifier: 'zoom' },
    { id: newToken(), identifier: 'Arc' },
    { id: newToken(), identifier: 'com.valvesoftware.steam' },
  ];
  const id = await createChild(server, parent, { blockedApps: apps });
  expect((await getUser(parent, id)).blockedApps).toEqual(apps);
});
