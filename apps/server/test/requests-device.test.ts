import type { ParentNotification } from '../src/notifications/dispatch.ts';
import { describe, expect, test, vi } from 'vitest';
import { fromDbJson } from '../src/db/values.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import {
  addChild,
  addComputerUser,
  addMacToken,
  deviceCall,
  serverWithParents,
} from './fixtures.ts';

// The Mac's side of requests (server-behaviour §4.2, §4.3): CreateUnlockRequests_v3,
// CreateSuspendFilterRequest_v2, and the decisions it reads back in CheckIn_v2.

// Every notifyParent call is recorded, then passed on to the real dispatch.
const notifications = vi.hoisted(() => [] as ParentNotification[]);
vi.mock('../src/notifications/dispatch.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/notifications/dispatch.ts')>();
  return {
    ...actual,
    notifyParent: async (...args: Parameters<typeof actual.notifyParent>) => {
      notifications.push(args[1]);
      return actual.notifyParent(...args);
    },
  };
});

const { server, alice, bob } = await serverWithParents();

async function newMac(parentId = alice.adminId, name = 'Sam') {
  const childId = await addChild(server, parentId, { name });
  const { computerUserId } = await addComputerUser(server, parentId, childId);
  const token = await addMacToken(server, childId, computerUserId);
  return { childId, computerUserId, token };
}

function unlockRows(computerUserId: string) {
  return server.db
    .selectFrom('unlock_requests')
    .selectAll()
    .where('computer_user_id', '=', computerUserId)
    .orderBy('created_at')
    .execute();
}

describe('CreateUnlockRequests_v3', () => {
  test('stores the batch as pending with the shared comment and notifies the parent once', async () => {
    const mac = await newMac(alice.adminId, 'Sam');
    notifications.length = 0;
    const mailsBefore = server.mails.length;
    const result = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [
        {
          bundleId: 'com.apple.Safari',
          url: 'https://www.khanacademy.org/math',
          hostname: 'www.khanacademy.org',
        },
        { bundleId: 'us.zoom.xos', hostname: 'zoom.us', ipAddress: '170.114.52.2' },
        { bundleId: 'com.valvesoftware.steam' },
      ],
      comment: '  for homework  ',
    });
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(3);

    const rows = await unlockRows(mac.computerUserId);
    expect(rows.map((row) => row.id).sort()).toEqual([...result.body].sort());
    expect(rows.every((row) => row.status === 'pending')).toBe(true);
    expect(rows.every((row) => row.request_comment === 'for homework')).toBe(true);
    expect(rows.map((row) => [row.app_bundle_id, row.url, row.hostname, row.ip_address])).toEqual(
      expect.arrayContaining([
        ['com.apple.Safari', 'https://www.khanacademy.org/math', 'www.khanacademy.org', null],
        ['us.zoom.xos', null, 'zoom.us', '170.114.52.2'],
        ['com.valvesoftware.steam', null, null, null],
      ]),
    );

    // one notification for the whole batch, after it was saved (delivered after the answer)
    await notificationsDelivered();
    expect(notifications).toEqual([
      {
        trigger: 'unlockRequestSubmitted',
        parentId: alice.adminId,
        childId: mac.childId,
        childName: 'Sam',
        requestIds: result.body,
      },
    ]);
    // alice has no notification rules: the dispatch sends one fallback email for the batch
    const sent = server.mails.slice(mailsBefore);
    expect(sent.map((mail) => [mail.to, mail.template])).toEqual([
      [alice.email, 'notify-unlock-request'],
    ]);
  });

  test('batches within the grouping window are one notification, a later batch another; blank fields are stored as absent', async () => {
    const mac = await newMac();
    notifications.length = 0;
    const first = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'a.example.com' }],
    });
    const second = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', url: ' ', hostname: 'b.example.com' }],
      comment: '   ',
    });
    expect(second.status).toBe(200);
    await notificationsDelivered();
    expect(notifications).toEqual([
      expect.objectContaining({
        childId: mac.childId,
        requestIds: [...first.body, ...second.body],
      }),
    ]);

    server.clock.advance(60_000);
    const third = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'c.example.com' }],
    });
    await notificationsDelivered();
    expect(notifications).toHaveLength(2);
    expect(notifications[1]).toMatchObject({ requestIds: third.body });

    const rows = await unlockRows(mac.computerUserId);
    expect(rows.find((row) => row.hostname === 'b.example.com')).toMatchObject({
      url: null,
      hostname: 'b.example.com',
      request_comment: null,
    });
  });

  test.each<[string, unknown, string]>([
    [
      'no requests',
      { blockedRequests: [] },
      'Choose at least one blocked website or app to ask about.',
    ],
    [
      'an empty bundle id',
      { blockedRequests: [{ bundleId: '  ', hostname: 'example.com' }] },
      'The request is missing the app that was blocked.',
    ],
    [
      'an over-long bundle id',
      { blockedRequests: [{ bundleId: 'x'.repeat(256) }] },
      "The app's identifier is too long.",
    ],
    [
      'an over-long host name in the second request',
      {
        blockedRequests: [
          { bundleId: 'com.apple.Safari', hostname: 'example.com' },
          { bundleId: 'com.apple.Safari', hostname: `${'a'.repeat(256)}.com` },
        ],
      },
      "The website's name is too long (request 2).",
    ],
  ])('refuses %s with a 400 and stores nothing', async (_name, input, message) => {
    const mac = await newMac();
    notifications.length = 0;
    const result = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, input);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ type: 'badRequest', userMessage: message });
    expect(await unlockRows(mac.computerUserId)).toEqual([]);
    await notificationsDelivered();
    expect(notifications).toEqual([]);
  });

  test.each<[string, unknown]>([
    [
      'an over-long url',
      { blockedRequests: [{ bundleId: 'b.c.d', url: `https://x.com/${'a'.repeat(2000)}` }] },
    ],
    [
      'an over-long comment',
      { blockedRequests: [{ bundleId: 'b.c.d' }], comment: 'a'.repeat(2001) },
    ],
    ['more than 1000 requests', { blockedRequests: Array(1001).fill({ bundleId: 'b.c.d' }) }],
    ['no blockedRequests at all', { comment: 'hi' }],
  ])('refuses %s with a contract 400', async (_name, input) => {
    const mac = await newMac();
    const result = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, input);
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toEqual(expect.any(String));
  });

  test('needs a Mac token', async () => {
    const result = await deviceCall(
      server,
      'CreateUnlockRequests_v3',
      '00000000-0000-4000-8000-000000000000',
      {
        blockedRequests: [{ bundleId: 'com.apple.Safari' }],
      },
    );
    expect(result.status).toBe(401);
    expect(result.body.appTag).toBe('userTokenNotFound');
  });
});

describe('CreateSuspendFilterRequest_v2', () => {
  test('stores a pending unrestricted request and notifies the parent', async () => {
    const mac = await newMac(alice.adminId, 'Kim');
    notifications.length = 0;
    const mailsBefore = server.mails.length;
    const result = await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, {
      duration: 600,
      comment: 'need to install a game for school',
    });
    expect(result.status).toBe(200);
    const row = await server.db
      .selectFrom('mac_suspend_filter_requests')
      .selectAll()
      .where('id', '=', result.body)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      computer_user_id: mac.computerUserId,
      status: 'pending',
      duration: 600,
      request_comment: 'need to install a game for school',
      extra_monitoring: null,
    });
    expect(fromDbJson(row.scope)).toEqual({ type: 'unrestricted' });
    await notificationsDelivered();
    expect(notifications).toEqual([
      {
        trigger: 'suspendFilterRequestSubmitted',
        parentId: alice.adminId,
        childId: mac.childId,
        childName: 'Kim',
        requestId: result.body,
        durationSeconds: 600,
        comment: 'need to install a game for school',
      },
    ]);
    const sent = server.mails.slice(mailsBefore);
    expect(sent.map((mail) => [mail.to, mail.template])).toEqual([
      [alice.email, 'notify-suspend-filter'],
    ]);
  });

  test.each<[string, unknown, string | undefined]>([
    ['a zero duration', { duration: 0 }, undefined],
    ['a fractional duration', { duration: 90.5 }, undefined],
    ['no duration', { comment: 'please' }, undefined],
    [
      'more than 7 days',
      { duration: 7 * 24 * 3600 + 1 },
      'A suspension can last at most 7 days. Ask for a shorter time.',
    ],
    ['an over-long comment', { duration: 300, comment: 'a'.repeat(2001) }, undefined],
  ])('refuses %s with a 400', async (_name, input, message) => {
    const mac = await newMac();
    notifications.length = 0;
    const result = await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, input);
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toEqual(message ?? expect.any(String));
    await notificationsDelivered();
    expect(notifications).toEqual([]);
  });
});

describe('CheckIn_v2 resolutions', () => {
  test('tells the Mac the decisions on the ids it sends, and nothing about others', async () => {
    const mac = await newMac();
    const otherMac = await newMac(bob.adminId);
    const asked = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [
        { bundleId: 'com.apple.Safari', url: 'https://khanacademy.org/' },
        { bundleId: 'com.apple.Safari', hostname: 'scratch.mit.edu' },
        { bundleId: 'com.valvesoftware.steam' },
      ],
    });
    const [accepted, rejected, pending] = asked.body as string[];
    const suspension = await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, {
      duration: 300,
    });
    const foreign = await deviceCall(server, 'CreateUnlockRequests_v3', otherMac.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'foreign.example.com' }],
    });

    const checkIn = (input: object = {}) =>
      deviceCall(server, 'CheckIn_v2', mac.token, { appVersion: '2.4.0', ...input });
    const before = await checkIn({
      pendingUnlockRequests: [accepted, rejected, pending],
      pendingFilterSuspension: suspension.body,
    });
    expect(before.body.resolvedUnlockRequests).toEqual([]);
    expect(before.body.resolvedFilterSuspension).toBeUndefined();

    const decide = (id: string, status: string, responseComment?: string) =>
      server.call('UpdateUnlockRequest', { id, status, responseComment }, { token: alice.token });
    expect((await decide(accepted!, 'accepted')).status).toBe(200);
    expect((await decide(rejected!, 'rejected', 'not on a school night')).status).toBe(200);
    await server.call(
      'UpdateUnlockRequest',
      { id: foreign.body[0], status: 'accepted' },
      { token: bob.token },
    );
    const granted = await server.call(
      'DecideFilterSuspensionRequest',
      {
        id: suspension.body,
        decision: { case: 'accepted', durationInSeconds: 1200, extraMonitoring: '@60+k' },
      },
      { token: alice.token },
    );
    expect(granted.status).toBe(200);

    const after = await checkIn({
      pendingUnlockRequests: [accepted, rejected, pending, foreign.body[0]],
      pendingFilterSuspension: suspension.body,
    });
    expect(after.status).toBe(200);
    expect(after.body.resolvedUnlockRequests).toEqual(
      expect.arrayContaining([
        { id: accepted, status: 'accepted', target: 'https://khanacademy.org/' },
        {
          id: rejected,
          status: 'rejected',
          target: 'scratch.mit.edu',
          comment: 'not on a school night',
        },
      ]),
    );
    expect(after.body.resolvedUnlockRequests).toHaveLength(2);
    // the extra monitoring the parent chose reaches the Mac with the decision
    expect(after.body.resolvedFilterSuspension).toEqual({
      id: suspension.body,
      decision: {
        accepted: {
          duration: 1200,
          extraMonitoring: { addKeyloggingAndSetScreenshotFreq: { _0: 60 } },
        },
      },
    });

    // another Mac asking about these ids learns nothing
    const nosy = await deviceCall(server, 'CheckIn_v2', otherMac.token, {
      appVersion: '2.4.0',
      pendingUnlockRequests: [accepted],
      pendingFilterSuspension: suspension.body,
    });
    expect(nosy.body.resolvedUnlockRequests).toEqual([]);
    expect(nosy.body.resolvedFilterSuspension).toBeUndefined();
  });
});
