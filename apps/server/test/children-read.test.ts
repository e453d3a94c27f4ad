import type { ChildComputerStatus } from '@keyward/contract/shared';
import { childStatus } from '@keyward/domain/status';
import { describe, expect, test } from 'vitest';
import { HOUR } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addComputerUser,
  addKey,
  addKeychain,
  AFTER_SCHOOL,
  createChild,
  reportState,
  serverWithParents,
  website,
} from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

describe('GetUsers / GetUser', () => {
  test('a child with keychains (unexpired keys counted), computers with live status and blocked apps', async () => {
    const parent = await server.signUpVerifiedParent();
    const school = await addKeychain(server, parent.adminId, { name: 'School' });
    const now = server.clock.now().getTime();
    await addKey(server, school);
    await addKey(server, school, website('example.com'), new Date(now + HOUR));
    await addKey(server, school, website('example.com'), new Date(now - HOUR)); // expired
    const blockedId = newToken();
    const childId = await createChild(server, parent, {
      name: 'Sam',
      screenshotsEnabled: true,
      screenshotsFrequency: 60,
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      keychains: [{ id: school, schedule: AFTER_SCHOOL }],
      blockedApps: [{ id: blockedId, identifier: 'com.valvesoftware.steam' }],
    });
    const mac = await addComputerUser(server, parent.adminId, childId, {
      modelIdentifier: 'MacBookPro16,1',
      customName: 'Study Mac',
    });
    await reportState(server, mac.computerUserId, { case: 'on' });

    const result = await server.call('GetUser', childId, { token: parent.token });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: childId,
      name: 'Sam',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotsResolution: 1000,
      screenshotsFrequency: 60,
      showSuspensionActivity: false,
      keychains: [
        {
          id: school,
          parentId: parent.adminId,
          name: 'School',
          isPublic: false,
          numKeys: 2,
          schedule: AFTER_SCHOOL,
        },
      ],
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      devices: [
        {
          id: mac.computerUserId,
          deviceId: mac.computerId,
          status: { case: 'filterOn' },
          modelFamily: 'macBookPro',
          modelTitle: '16" MacBook Pro (2019)',
          modelIdentifier: 'MacBookPro16,1',
          customName: 'Study Mac',
        },
      ],
      blockedApps: [{ id: blockedId, identifier: 'com.valvesoftware.steam' }],
      createdAt: server.clock.now().toISOString(),
      // issue 24: self-harm alerts are on for every child (they work while keylogging is on)
      alertCategories: ['selfHarm'],
      alertWords: [],
      // issue 34: no limit on any day until the parent sets one
      screenTime: {
        allowance: {
          monday: null,
          tuesday: null,
          wednesday: null,
          thursday: null,
          friday: null,
          saturday: null,
          sunday: null,
        },
        exemptKeychainIds: [],
        timeZone: 'UTC',
      },
    });

    const list = await server.call('GetUsers', undefined, { token: parent.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([result.body]);
  });

  test('a new child has no computers, no keychains and an empty blocked-app list', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await createChild(server, parent);
    const result = await server.call('GetUser', childId.toUpperCase(), { token: parent.token });
    expect(result.status).toBe(200);
    expect(result.body.devices).toEqual([]);
    expect(result.body.keychains).toEqual([]);
    expect(result.body.blockedApps).toEqual([]);
    expect(result.body).not.toHaveProperty('downtime');
  });

  test('statuses: suspended and offline computers; offline after 100 s without a heartbeat', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await createChild(server, parent);
    const resuming = new Date(server.clock.now().getTime() + 20 * 60_000).toISOString();
    const suspended = await addComputerUser(server, parent.adminId, childId);
    const neverSeen = await addComputerUser(server, parent.adminId, childId);
    await reportState(server, suspended.computerUserId, { case: 'suspended', resuming });

    const statusOf = async () => {
      const result = await server.call('GetUser', childId, { token: parent.token });
      return Object.fromEntries(
        (result.body.devices as { id: string; status: unknown }[]).map((d) => [d.id, d.status]),
      );
    };
    expect(await statusOf()).toEqual({
      [suspended.computerUserId]: { case: 'filterSuspended', resuming },
      [neverSeen.computerUserId]: { case: 'offline' },
    });

    server.clock.advance(99_000);
    expect((await statusOf())[suspended.computerUserId]).toEqual({
      case: 'filterSuspended',
      resuming,
    });
    server.clock.advance(1_000);
    expect((await statusOf())[suspended.computerUserId]).toEqual({ case: 'offline' });
  });

  test('GetUsers lists only the own children, in the order they were added', async () => {
    const parent = await server.signUpVerifiedParent();
    const first = await createChild(server, parent, { name: 'Zoe' });
    server.clock.advance(1000);
    const second = await createChild(server, parent, { name: 'Ada' });
    await createChild(server, bob, { name: 'Not yours' });

    const result = await server.call('GetUsers', undefined, { token: parent.token });
    expect(result.status).toBe(200);
    expect(result.body.map((u: { id: string }) => u.id)).toEqual([first, second]);
  });

  test("another parent's child is notFound", async () => {
    const childId = await createChild(server, alice);
    const result = await server.call('GetUser', childId, { token: bob.token });
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ id: '6ac1205a', type: 'notFound', entityName: 'Child' });

    const bobs = await server.call('GetUsers', undefined, { token: bob.token });
    expect(bobs.body.map((u: { id: string }) => u.id)).not.toContain(childId);
  });

  test('an unknown child is notFound', async () => {
    const result = await server.call('GetUser', newToken(), { token: alice.token });
    expect(result.status).toBe(404);
  });

  test('needs a session', async () => {
    const result = await server.call('GetUsers');
    expect(result.status).toBe(401);
  });
});

test("the child's status (dashboard rule §4.5) from its computers' statuses", async () => {
  const parent = await server.signUpVerifiedParent();
  const childId = await createChild(server, parent);
  const on = await addComputerUser(server, parent.adminId, childId);
  const suspended = await addComputerUser(server, parent.adminId, childId);
  await reportState(server, on.computerUserId, { case: 'on' });
  const statusNow = async () => {
    const user = (await server.call('GetUser', childId, { token: parent.token })).body;
    return childStatus(user.devices.map((d: { status: ChildComputerStatus }) => d.status));
  };
  // one Mac on, one never seen: offline is more worrying than filterOn
  expect(await statusNow()).toEqual({ case: 'offline' });
  const resuming = new Date(server.clock.now().getTime() + 600_000).toISOString();
  await reportState(server, suspended.computerUserId, { case: 'suspended', resuming });
  expect(await statusNow()).toEqual({ case: 'filterSuspended', resuming });
  await reportState(server, suspended.computerUserId, { case: 'on' });
  expect(await statusNow()).toEqual({ case: 'filterOn' });
});
