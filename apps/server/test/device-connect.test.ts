import { toSwiftIsoDate } from '@keyward/contract/swift';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DAY, fromDbBool, fromDbInt, HOUR, MINUTE } from '../src/db/values.ts';
import { createTokenService, hashToken } from '../src/services/tokens.ts';
import {
  addChild,
  addConnectionCode,
  AFTER_SCHOOL,
  blockApp,
  connectedMac,
  connectUser,
  deviceCall,
  newMac,
} from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => server.close());

const checkIn = (token: string) => deviceCall(server, 'CheckIn_v2', token, { appVersion: '2.4.0' });

function computerBySerial(serialNumber: string) {
  return server.db
    .selectFrom('computers')
    .selectAll()
    .where('serial_number', '=', serialNumber)
    .executeTakeFirst();
}

describe('ConnectUser', () => {
  test('creates the computer, its computer user and a hashed token; answers the child settings', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId, {
      name: 'Maya',
      screenshotsEnabled: true,
      screenshotsFrequency: 60,
      screenshotsResolution: 800,
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
    });
    const blockedId = await blockApp(server, childId, 'com.valvesoftware.steam', AFTER_SCHOOL);
    const code = await addConnectionCode(server, childId);
    const mac = newMac({ numericId: 502, username: 'maya', fullUsername: 'Maya K', isAdmin: true });

    const result = await connectUser(server, code, mac);

    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: childId,
      name: 'Maya',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotFrequency: 60,
      screenshotSize: 800,
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      blockedApps: [
        { id: blockedId, identifier: 'com.valvesoftware.steam', schedule: AFTER_SCHOOL },
      ],
      token: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deviceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      connectedAt: toSwiftIsoDate(server.clock.now()),
    });

    const computer = await computerBySerial(mac.serialNumber);
    expect(computer).toMatchObject({
      parent_id: parent.adminId,
      model_identifier: 'MacBookPro16,1',
      os_version: '14.5.0',
      custom_name: null,
      app_release_channel: 'stable',
    });
    const computerUser = await server.db
      .selectFrom('computer_users')
      .selectAll()
      .where('id', '=', result.body.deviceId)
      .executeTakeFirstOrThrow();
    expect(computerUser).toMatchObject({
      child_id: childId,
      computer_id: computer?.id,
      app_version: '2.4.0',
      username: 'maya',
      full_username: 'Maya K',
    });
    expect(fromDbInt(computerUser.numeric_id)).toBe(502);
    expect(fromDbBool(computerUser.is_admin)).toBe(true);

    const tokens = await server.db
      .selectFrom('mac_app_tokens')
      .selectAll()
      .where('computer_user_id', '=', result.body.deviceId)
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.token_hash).toBe(hashToken(result.body.token));
    expect(tokens[0]?.token_hash).not.toContain(result.body.token);
    expect(tokens[0]?.deleted_at).toBeNull();

    expect((await checkIn(result.body.token)).status).toBe(200);
  });

  test('a wrong code is refused with the behaviour doc’s message and creates nothing', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const code = await addConnectionCode(server, childId);
    const wrong = code === 999_999 ? 100_000 : code + 1;
    const mac = newMac();

    const result = await connectUser(server, wrong, mac);

    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({
      id: '6e7fc234',
      type: 'unauthorized',
      appTag: 'connectionCodeNotFound',
      userMessage: 'Connection code expired, or not found. Please create a new code and try again.',
    });
    expect(await computerBySerial(mac.serialNumber)).toBeUndefined();
  });

  test('a code works once', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const code = await addConnectionCode(server, childId);

    expect((await connectUser(server, code, newMac())).status).toBe(200);
    const again = await connectUser(server, code, newMac());

    expect(again.status).toBe(401);
    expect(again.body.id).toBe('6e7fc234');
  });

  test('a code expires after an hour (issue 19), and the expired code is deleted on lookup', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const stillValid = await addConnectionCode(server, childId);
    const expiring = await addConnectionCode(server, childId);

    server.clock.advance(HOUR - MINUTE);
    expect((await connectUser(server, stillValid, newMac())).status).toBe(200);

    server.clock.advance(2 * MINUTE);
    const late = await connectUser(server, expiring, newMac());
    expect(late.status).toBe(401);
    expect(late.body.id).toBe('6e7fc234');
    const left = await server.db
      .selectFrom('connection_codes')
      .select(['code_hash', 'used_at'])
      .where('child_id', '=', childId)
      .execute();
    // issue 31: the used code is kept 2 minutes (a retry is not a wrong guess); the expired one is gone
    const tokens = createTokenService(server.config);
    expect(left.map((row) => row.code_hash)).not.toContain(tokens.hmac(expiring));
    expect(left.every((row) => row.used_at !== null)).toBe(true);
  });

  test('the same macOS user re-pointed to another child keeps its id; the old token has 14 days of grace', async () => {
    const parent = await server.signUpVerifiedParent();
    const first = await connectedMac(server, parent.adminId);
    const secondChild = await addChild(server, parent.adminId, { name: 'Noah' });
    const mac = { ...first.mac, username: 'sam2', fullUsername: 'Sam Two', isAdmin: true };

    const result = await connectUser(server, await addConnectionCode(server, secondChild), mac);

    expect(result.status).toBe(200);
    expect(result.body.deviceId).toBe(first.computerUserId);
    expect(result.body.id).toBe(secondChild);
    expect(result.body.name).toBe('Noah');
    const computerUser = await server.db
      .selectFrom('computer_users')
      .selectAll()
      .where('id', '=', first.computerUserId)
      .executeTakeFirstOrThrow();
    expect(computerUser).toMatchObject({
      child_id: secondChild,
      username: 'sam2',
      full_username: 'Sam Two',
    });
    expect(fromDbBool(computerUser.is_admin)).toBe(true);
    const computers = await server.db
      .selectFrom('computers')
      .select('id')
      .where('serial_number', '=', first.mac.serialNumber)
      .execute();
    expect(computers).toHaveLength(1);

    const newCheckIn = await checkIn(result.body.token);
    expect(newCheckIn.status).toBe(200);
    expect(newCheckIn.body.userData.id).toBe(secondChild);

    server.clock.advance(14 * DAY - MINUTE);
    expect((await checkIn(first.token)).status).toBe(200);
    server.clock.advance(2 * MINUTE);
    const refused = await checkIn(first.token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ id: '6e88d0de', appTag: 'userTokenNotFound' });
    expect((await checkIn(result.body.token)).status).toBe(200);
  });

  test('the same serial and numericId under another parent is refused and nothing changes', async () => {
    const owner = await server.signUpVerifiedParent();
    const existing = await connectedMac(server, owner.adminId);
    const stranger = await server.signUpVerifiedParent();
    const strangersChild = await addChild(server, stranger.adminId);

    const result = await connectUser(
      server,
      await addConnectionCode(server, strangersChild),
      existing.mac,
    );

    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({
      id: '41a43089',
      type: 'unauthorized',
      userMessage: 'This user is associated with another parent account.',
    });
    const computerUser = await server.db
      .selectFrom('computer_users')
      .select('child_id')
      .where('id', '=', existing.computerUserId)
      .executeTakeFirstOrThrow();
    expect(computerUser.child_id).toBe(existing.childId);
    expect((await computerBySerial(existing.mac.serialNumber))?.parent_id).toBe(owner.adminId);
    expect((await checkIn(existing.token)).status).toBe(200);
  });

  test('another macOS user on a computer still used by another parent is refused', async () => {
    const owner = await server.signUpVerifiedParent();
    const existing = await connectedMac(server, owner.adminId);
    const stranger = await server.signUpVerifiedParent();
    const strangersChild = await addChild(server, stranger.adminId);

    const result = await connectUser(server, await addConnectionCode(server, strangersChild), {
      ...existing.mac,
      numericId: 777,
    });

    expect(result.status).toBe(401);
    expect(result.body.id).toBe('41a43089');
    const users = await server.db
      .selectFrom('computer_users')
      .select('id')
      .where('child_id', '=', strangersChild)
      .execute();
    expect(users).toHaveLength(0);
  });

  test('a computer of another parent with no computer users left changes hands', async () => {
    const owner = await server.signUpVerifiedParent();
    const existing = await connectedMac(server, owner.adminId);
    const computer = await computerBySerial(existing.mac.serialNumber);
    await server.db
      .updateTable('computers')
      .set({ custom_name: 'Office iMac', app_release_channel: 'beta' })
      .where('id', '=', computer!.id)
      .execute();
    await server.db
      .deleteFrom('computer_users')
      .where('id', '=', existing.computerUserId)
      .execute();
    const newOwner = await server.signUpVerifiedParent();
    const childId = await addChild(server, newOwner.adminId);

    const result = await connectUser(
      server,
      await addConnectionCode(server, childId),
      existing.mac,
    );

    expect(result.status).toBe(200);
    const transferred = await computerBySerial(existing.mac.serialNumber);
    expect(transferred).toMatchObject({
      id: computer!.id,
      parent_id: newOwner.adminId,
      custom_name: null,
      app_release_channel: 'stable',
    });
  });

  test('a second macOS user on a computer of the same parent joins the same computer', async () => {
    const parent = await server.signUpVerifiedParent();
    const first = await connectedMac(server, parent.adminId);
    const sibling = await addChild(server, parent.adminId, { name: 'Lea' });

    const result = await connectUser(server, await addConnectionCode(server, sibling), {
      ...first.mac,
      numericId: 503,
    });

    expect(result.status).toBe(200);
    expect(result.body.deviceId).not.toBe(first.computerUserId);
    const users = await server.db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as m', 'm.id', 'cu.computer_id')
      .select('cu.id')
      .where('m.serial_number', '=', first.mac.serialNumber)
      .execute();
    expect(users).toHaveLength(2);
  });
});

describe('ConnectUser rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await createTestServer({ env: { RATE_LIMIT_SCALE: '1' } });
  });
  afterAll(async () => limited.close());

  test('10 failed guesses per IP and hour; then even a valid code waits for the next window', async () => {
    // late in the second half of the hour, so the code (an hour's life) outlives the wait: the
    // budget slides in half-hours (issue 31), so there is room again at the end of the next one
    limited.clock.advance(50 * MINUTE);
    const parent = await limited.signUpVerifiedParent();
    const childId = await addChild(limited, parent.adminId);
    const valid = await addConnectionCode(limited, childId);
    const wrong = valid === 999_999 ? 100_000 : valid + 1;

    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await connectUser(limited, wrong, newMac())).status).toBe(401);
    }
    const blocked = await connectUser(limited, valid, newMac());
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    limited.clock.advance(Number(blocked.headers['retry-after']) * 1000);
    const later = await connectUser(limited, valid, newMac());
    expect(later.status).toBe(200);
  });

  test('successful connections do not count against the budget', async () => {
    limited.clock.advance(60 * MINUTE);
    const parent = await limited.signUpVerifiedParent();
    const childId = await addChild(limited, parent.adminId);
    for (let attempt = 0; attempt < 12; attempt++) {
      const code = await addConnectionCode(limited, childId);
      expect((await connectUser(limited, code, newMac())).status).toBe(200);
    }
  });
});
