import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { describe, expect, test } from 'vitest';
import { HOUR, MINUTE } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addConnectionCode,
  connectedMac,
  deviceCall,
  type Parent,
  recordPushes,
  reportState,
  serverWithParents,
} from './fixtures.ts';

// Issue 20: one inbox of everything waiting for the parent (GetInbox) and one list of the family's
// devices of every kind (GetFamilyDevices); a suspension request of any kind of device is read and
// decided through one path, and the Mac that asked hears the decision.

const { server, alice, bob } = await serverWithParents();

const dashboard = (parent: Parent, op: string, input?: unknown) =>
  server.call(op, input, { token: parent.token });

async function connectIpad(childId: string) {
  const code = await addConnectionCode(server, childId);
  const result = await server.call(
    'ConnectDevice',
    {
      verificationCode: code,
      vendorId: newToken(),
      deviceType: 'iPad',
      appVersion: '1.5.0',
      iosVersion: '17.5',
    },
    { namespace: 'ios-app' },
  );
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { token: result.body.token as string, deviceId: result.body.deviceId as string };
}

const iosCall = (op: string, input: unknown, token: string) =>
  server.call(op, input, { namespace: 'ios-app', token });

async function inbox(parent: Parent) {
  const result = await dashboard(parent, 'GetInbox');
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.items as {
    case: string;
    id: string;
    childId: string;
    childName: string;
    device: { kind: string; id: string; name: string };
    createdAt: string;
  }[];
}

// Alice: Emma has a Mac and an iPad, Noah only an iPad. Bob: one child with a Mac.
const emma = await connectedMac(server, alice.adminId);
await server.db
  .updateTable('children')
  .set({ name: 'Emma' })
  .where('id', '=', emma.childId)
  .execute();
const emmasIpad = await connectIpad(emma.childId);
const noahId = await addChild(server, alice.adminId, { name: 'Noah' });
const noahsIpad = await connectIpad(noahId);
const bobsMac = await connectedMac(server, bob.adminId);

describe('GetInbox', () => {
  test('every pending request of every device kind, newest first', async () => {
    expect(await inbox(alice)).toEqual([]);

    const macSuspension = (
      await deviceCall(server, 'CreateSuspendFilterRequest_v2', emma.token, {
        duration: 300,
        comment: 'homework video',
      })
    ).body as string;
    server.clock.advance(MINUTE);
    const [unlock] = (
      await deviceCall(server, 'CreateUnlockRequests_v3', emma.token, {
        blockedRequests: [{ bundleId: 'com.apple.Safari', url: 'https://example.com/page' }],
      })
    ).body as string[];
    server.clock.advance(MINUTE);
    const ipadSuspension = (
      await iosCall('CreateSuspendFilterRequest', { duration: 600 }, noahsIpad.token)
    ).body as string;

    const items = await inbox(alice);
    expect(items.map((item) => [item.case, item.id, item.childName, item.device.kind])).toEqual([
      ['suspension', ipadSuspension, 'Noah', 'ios'],
      ['unlock', unlock, 'Emma', 'mac'],
      ['suspension', macSuspension, 'Emma', 'mac'],
    ]);
    expect(items[0]).toMatchObject({
      device: { kind: 'ios', id: noahsIpad.deviceId, name: 'iPad' },
      requestedDurationInSeconds: 600,
      extraMonitoringOptions: {},
    });
    expect(items[1]).toMatchObject({
      target: 'https://example.com/page',
      device: { kind: 'mac', id: emma.computerUserId },
    });
    expect(items[2]).toMatchObject({
      requestComment: 'homework video',
      requestedDurationInSeconds: 300,
    });

    // decided requests leave the inbox, through the one decision path for both kinds
    for (const id of [macSuspension, ipadSuspension]) {
      const decided = await dashboard(alice, 'DecideFilterSuspensionRequest', {
        id,
        decision: { case: 'accepted', durationInSeconds: 600 },
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    const decidedUnlock = await dashboard(alice, 'UpdateUnlockRequest', {
      id: unlock,
      status: 'rejected',
    });
    expect(decidedUnlock.status, JSON.stringify(decidedUnlock.body)).toBe(200);
    expect(await inbox(alice)).toEqual([]);
  });

  test('a suspension request older than 2 hours is no longer waiting', async () => {
    const id = (await iosCall('CreateSuspendFilterRequest', { duration: 300 }, emmasIpad.token))
      .body as string;
    expect((await inbox(alice)).map((item) => item.id)).toContain(id);
    server.clock.advance(2 * HOUR + MINUTE);
    expect((await inbox(alice)).map((item) => item.id)).not.toContain(id);
  });

  test("another family's requests are never in it", async () => {
    const bobs = (
      await deviceCall(server, 'CreateSuspendFilterRequest_v2', bobsMac.token, { duration: 300 })
    ).body as string;
    expect((await inbox(alice)).map((item) => item.id)).not.toContain(bobs);
    expect((await inbox(bob)).map((item) => item.id)).toEqual([bobs]);
    // nor can Alice read or decide it
    const read = await dashboard(alice, 'GetSuspendFilterRequest', bobs);
    expect([read.status, read.body.type]).toEqual([404, 'notFound']);
    const decide = await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id: bobs,
      decision: { case: 'rejected' },
    });
    expect([decide.status, decide.body.type]).toEqual([404, 'notFound']);
    expect((await inbox(bob)).map((item) => item.id)).toEqual([bobs]);
  });
});

describe('one suspension path for both kinds', () => {
  test('the Mac that asked gets the decision pushed; the iPad polls it', async () => {
    const pushes = recordPushes(server, [emma.computerUserId]);
    const mac = (
      await deviceCall(server, 'CreateSuspendFilterRequest_v2', emma.token, { duration: 300 })
    ).body as string;
    const read = await dashboard(alice, 'GetSuspendFilterRequest', mac);
    expect(read.body).toMatchObject({
      id: mac,
      deviceId: emma.computerUserId,
      status: 'pending',
      userName: 'Emma',
    });
    expect(
      (
        await dashboard(alice, 'DecideFilterSuspensionRequest', {
          id: mac,
          decision: { case: 'rejected' },
          responseComment: ' not now ',
        })
      ).status,
    ).toBe(200);
    expect(pushes.to(emma.computerUserId)).toEqual([
      {
        case: 'filterSuspensionRequestDecided_v2',
        id: mac,
        decision: { rejected: {} },
        comment: 'not now',
      },
    ]);
    pushes.stop();

    const ipad = (await iosCall('CreateSuspendFilterRequest', { duration: 300 }, noahsIpad.token))
      .body as string;
    const granted = await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id: ipad,
      decision: { case: 'accepted', durationInSeconds: 1200 },
    });
    expect(granted.status).toBe(200);
    const polled = await iosCall('PollFilterSuspensionDecision', ipad, noahsIpad.token);
    expect(JSON.stringify(polled.body)).toContain('1200');
    // a second decision is refused for either kind
    for (const id of [mac, ipad]) {
      const again = await dashboard(alice, 'DecideFilterSuspensionRequest', {
        id,
        decision: { case: 'rejected' },
      });
      expect([again.status, again.body.type]).toEqual([400, 'badRequest']);
    }
  });
});

describe('GetFamilyDevices', () => {
  test('Macs and iPads of every child, with live status and pending requests', async () => {
    await reportState(server, emma.computerUserId, { case: 'on' });
    await iosCall('CreateSuspendFilterRequest', { duration: 300 }, noahsIpad.token);
    const result = await dashboard(alice, 'GetFamilyDevices');
    expect(result.status).toBe(200);
    const devices = result.body as {
      kind: string;
      id: string;
      childName: string;
      status?: { case: string };
      path: string;
      pendingRequests: number;
    }[];
    expect(devices.map((d) => [d.kind, d.childName, d.id])).toEqual([
      ['mac', 'Emma', emma.computerUserId],
      ['ios', 'Emma', emmasIpad.deviceId],
      ['ios', 'Noah', noahsIpad.deviceId],
    ]);
    expect(devices[0]!.status).toEqual({ case: 'filterOn' });
    expect(devices[0]!.path).toMatch(/^\/computers\//);
    expect(devices[2]).toMatchObject({ path: `/ios-devices/${noahsIpad.deviceId}` });
    expect(devices[2]!.pendingRequests).toBeGreaterThanOrEqual(1);

    const bobs = await dashboard(bob, 'GetFamilyDevices');
    expect(bobs.body.map((d: { id: string }) => d.id)).toEqual([bobsMac.computerUserId]);
  });
});

// Issue 32: alerts were not in "Needs you" (only "30 unreviewed" on home)
describe('GetInbox alerts', () => {
  test("each child's alerts still to look at, not another family's; an unflagged one leaves", async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId, {
      name: 'Ivy',
      keyloggingEnabled: true,
    });
    const mac = await connectedMac(server, parent.adminId, { childId });
    const at = server.clock.now().getTime();
    const typed = await deviceCall(server, 'CreateKeystrokeLines', mac.token, [
      { appName: 'Notes', line: 'kill myself', time: toSwiftReferenceSeconds(new Date(at - 2000)) },
      { appName: 'Notes', line: 'homework', time: toSwiftReferenceSeconds(new Date(at - 1000)) },
    ]);
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);

    const inbox = await dashboard(parent, 'GetInbox');
    expect(inbox.status).toBe(200);
    expect(inbox.body.alerts).toEqual([
      {
        childId,
        childName: 'Ivy',
        count: 1,
        categories: ['selfHarm'],
        latestAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect((await dashboard(bob, 'GetInbox')).body.alerts).toEqual([]);

    await server.db
      .updateTable('keystroke_lines')
      .set({ flagged: null })
      .where('alert_category', 'is not', null)
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect((await dashboard(parent, 'GetInbox')).body.alerts).toEqual([]);
  });
});
