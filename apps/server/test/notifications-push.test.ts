import { PUSH_DECIDE_PATH, PushDecideOutput, PushMessage } from '@keyward/contract/push';
import { afterAll, describe, expect, test } from 'vitest';
import { MINUTE } from '../src/db/values.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import {
  addChild,
  addConnectionCode,
  inviteCoParent,
  addComputerUser,
  addMacToken,
  deviceCall,
  type Parent,
  recordPushes,
  serverWithParents,
} from './fixtures.ts';
import { startFakePushService } from './fakes/push-service.ts';
import { addMethod } from './notifications-fixtures.ts';

// Issue 23: "This device", Web Push as a notification method. The server's messages go to a fake
// push service on 127.0.0.1 that verifies their VAPID JWT and decrypts them as the browser would;
// the one-tap decisions of a suspension request go through POST /push-actions/decide.

const pushService = await startFakePushService();
afterAll(() => pushService.close());
const { server, alice, bob } = await serverWithParents();

const ALL_REQUESTS = ['unlockRequestSubmitted', 'suspendFilterRequestSubmitted'];

const dashboard = (parent: Parent, op: string, input?: unknown) =>
  server.call(op, input, { token: parent.token });

async function turnOnThisDevice(
  parent: Parent,
  triggers = ALL_REQUESTS,
  label = 'Chrome on Android',
) {
  const browser = pushService.subscribe();
  const saved = await dashboard(parent, 'SavePushSubscription', {
    id: crypto.randomUUID(),
    ...browser,
    label,
    triggers,
  });
  expect(saved.status).toBe(200);
  return { browser, methodId: saved.body.id as string };
}

async function newMac(parent: Parent, name = 'Sam') {
  const childId = await addChild(server, parent.adminId, { name });
  const { computerUserId } = await addComputerUser(server, parent.adminId, childId);
  const token = await addMacToken(server, childId, computerUserId);
  return { childId, computerUserId, token };
}

async function askSuspension(token: string, duration = 600): Promise<string> {
  const result = await deviceCall(server, 'CreateSuspendFilterRequest_v2', token, {
    duration,
    comment: 'homework video',
  });
  expect(result.status).toBe(200);
  return result.body;
}

/**
 * The messages that reached the browser since `from`, after the grouped deliveries went out; each
 * is what the service worker expects (packages/contract/src/push.ts).
 */
async function pushesSince(from: number) {
  await notificationsDelivered();
  const received = pushService.received.slice(from);
  for (const push of received) PushMessage.parse(push.payload);
  return received;
}

/** The service worker's call; every answer is `{ message }` for the notification that replaces it. */
async function decideFromNotification(token: string, action: string) {
  const answer = await server.app.inject({
    method: 'POST',
    url: PUSH_DECIDE_PATH,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ token, action }),
  });
  PushDecideOutput.parse(answer.json());
  return answer;
}

async function suspensionStatus(id: string) {
  const row = await server.db
    .selectFrom('mac_suspend_filter_requests')
    .select(['status', 'duration'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row;
}

describe('the "This device" method', () => {
  test('is saved for the person, listed with its triggers, and kept out of GetAdmin', async () => {
    const parent = await server.signUpVerifiedParent();
    const empty = await dashboard(parent, 'GetPushSubscriptions');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      vapidPublicKey: server.config.vapid.publicKey,
      subscriptions: [],
    });

    const { browser, methodId } = await turnOnThisDevice(parent);
    const listed = await dashboard(parent, 'GetPushSubscriptions');
    expect(listed.body.subscriptions).toEqual([
      {
        id: methodId,
        label: 'Chrome on Android',
        endpoint: browser.endpoint,
        triggers: expect.arrayContaining(ALL_REQUESTS),
        createdAt: expect.any(String),
      },
    ]);
    // the reference dashboard never meets a method case it does not know
    const admin = await dashboard(parent, 'GetAdmin');
    expect(admin.body.verifiedNotificationMethods.map((m: { id: string }) => m.id)).not.toContain(
      methodId,
    );
    expect(admin.body.notifications).toEqual([]);
    const audit = await server.db
      .selectFrom('audit_log')
      .select(['operation', 'summary'])
      .where('parent_id', '=', parent.adminId)
      .where('operation', '=', 'SavePushSubscription')
      .execute();
    expect(audit).toEqual([
      { operation: 'SavePushSubscription', summary: expect.stringContaining('Chrome on Android') },
    ]);
  });

  test('the same browser saved again is the same method with the new triggers', async () => {
    const parent = await server.signUpVerifiedParent();
    const { browser, methodId } = await turnOnThisDevice(parent);
    const again = await dashboard(parent, 'SavePushSubscription', {
      id: crypto.randomUUID(),
      ...browser,
      triggers: ['adminChildSecurityEvent'],
    });
    expect(again.body).toEqual({ id: methodId });
    const listed = await dashboard(parent, 'GetPushSubscriptions');
    expect(listed.body.subscriptions).toHaveLength(1);
    expect(listed.body.subscriptions[0].triggers).toEqual(['adminChildSecurityEvent']);
  });

  test('a co-parent who knows the owner’s endpoint cannot take the owner’s method (issue 31)', async () => {
    // before: the co-parent's save replaced the owner's keys and made the method the co-parent's
    const owner = await server.signUpVerifiedParent();
    const { browser, methodId } = await turnOnThisDevice(owner);
    const coParent = await inviteCoParent(server, owner);
    const other = pushService.subscribe();
    const taken = await server.call(
      'SavePushSubscription',
      {
        id: crypto.randomUUID(),
        endpoint: browser.endpoint,
        keys: other.keys,
        triggers: ['adminChildSecurityEvent'],
      },
      { token: coParent.token },
    );
    expect(taken.status).toBe(400);
    expect(taken.body.userMessage).toMatch(/turned on for another parent of your family/);
    const row = await server.db
      .selectFrom('notification_methods')
      .select(['person_id'])
      .where('id', '=', methodId)
      .executeTakeFirstOrThrow();
    expect(row.person_id).toBeNull();
    const listed = await dashboard(owner, 'GetPushSubscriptions');
    expect(listed.body.subscriptions).toHaveLength(1);
    expect(listed.body.subscriptions[0].triggers).toEqual(expect.arrayContaining(ALL_REQUESTS));
  });

  test('refuses endpoints and keys that are not a push subscription', async () => {
    const browser = pushService.subscribe();
    const badKey = await dashboard(alice, 'SavePushSubscription', {
      id: crypto.randomUUID(),
      endpoint: browser.endpoint,
      keys: { p256dh: 'AAAA', auth: browser.keys.auth },
      triggers: ALL_REQUESTS,
    });
    expect(badKey.status).toBe(400);
    const notUrl = await dashboard(alice, 'SavePushSubscription', {
      id: crypto.randomUUID(),
      endpoint: 'file:///etc/passwd',
      keys: browser.keys,
      triggers: ALL_REQUESTS,
    });
    expect(notUrl.status).toBe(400);
  });

  test('a family has at most 50 methods', async () => {
    const parent = await server.signUpVerifiedParent();
    // the account email method is the first
    for (let i = 1; i < 50; i++) {
      await addMethod(server, parent.adminId, { case: 'email', email: `m${i}@example.com` });
    }
    const browser = pushService.subscribe();
    const refused = await dashboard(parent, 'SavePushSubscription', {
      id: crypto.randomUUID(),
      ...browser,
      triggers: ALL_REQUESTS,
    });
    expect(refused.status).toBe(400);
  });

  test('another family is refused: it cannot list, delete or see the method', async () => {
    const { methodId } = await turnOnThisDevice(alice);
    const bobsList = await dashboard(bob, 'GetPushSubscriptions');
    expect(bobsList.body.subscriptions).toEqual([]);
    const bobsDelete = await dashboard(bob, 'DeletePushSubscription', { id: methodId });
    expect(bobsDelete.status).toBe(404);
    const asVerifiedMethod = await dashboard(alice, 'DeleteEntity_v2', {
      type: 'parentVerifiedNotificationMethod',
      id: methodId,
    });
    expect(asVerifiedMethod.status).toBe(404);
    const removed = await dashboard(alice, 'DeletePushSubscription', { id: methodId });
    expect(removed.body).toEqual({ success: true });
    const rules = await server.db
      .selectFrom('notifications')
      .select('id')
      .where('method_id', '=', methodId)
      .execute();
    expect(rules).toEqual([]);
  });
});

describe('push delivery', () => {
  test('an unlock request reaches the browser, VAPID-signed and encrypted, opening its page', async () => {
    const parent = await server.signUpVerifiedParent();
    const { browser } = await turnOnThisDevice(parent);
    const mac = await newMac(parent);
    const from = pushService.received.length;
    const created = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', url: 'https://example.com/page' }],
    });
    expect(created.status).toBe(200);
    const [requestId] = created.body;

    const pushes = await pushesSince(from);
    expect(pushService.refused).toEqual([]);
    expect(pushes).toHaveLength(1);
    const [push] = pushes;
    expect(browser.endpoint).toContain(push?.subscriptionId);
    expect(push?.vapidKey).toBe(server.config.vapid.publicKey);
    expect(push?.claims.aud).toBe(pushService.origin);
    expect(push?.claims.sub).toBe('mailto:support@keyward.local');
    expect(push?.urgency).toBe('high');
    expect(push?.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(push?.payload).toEqual({
      title: 'Unlock request from Sam',
      body: 'Sam asks to unlock https://example.com/page.',
      tag: `unlockRequestSubmitted:${mac.childId}`,
      url: `/children/${mac.childId}/unlock-requests/${requestId}`,
    });
  });

  test('a browser the push service says is gone (410, 404) is removed with its rules', async () => {
    for (const status of [410, 404]) {
      const parent = await server.signUpVerifiedParent();
      const { browser, methodId } = await turnOnThisDevice(parent);
      pushService.answer(browser.endpoint, status);
      const mac = await newMac(parent);
      await askSuspension(mac.token);
      await notificationsDelivered();
      const method = await server.db
        .selectFrom('notification_methods')
        .select('id')
        .where('id', '=', methodId)
        .executeTakeFirst();
      expect(method, `after ${status}`).toBeUndefined();
      const listed = await dashboard(parent, 'GetPushSubscriptions');
      expect(listed.body.subscriptions).toEqual([]);
    }
  });

  test("several requests of a child in one window are one notification, replacing the child's last", async () => {
    const parent = await server.signUpVerifiedParent();
    await turnOnThisDevice(parent);
    const mac = await newMac(parent, 'Robin');
    // a device has one pending request at a time: a second computer of the child asks too
    const second = await addComputerUser(server, parent.adminId, mac.childId);
    const secondToken = await addMacToken(server, mac.childId, second.computerUserId);
    const from = pushService.received.length;
    await askSuspension(mac.token, 600);
    server.clock.advance(1000);
    await askSuspension(secondToken, 1200);
    const grouped = await pushesSince(from);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]?.payload.body).toBe(
      'Robin sent 2 suspension requests, the latest for 20 minutes. "homework video"',
    );
    // several requests: which one a button would decide is unclear, so the page opens instead
    expect(grouped[0]?.payload.actions).toBeUndefined();
    expect(grouped[0]?.payload.actionToken).toBeUndefined();

    // the next window's notification about Robin has the same tag and topic: it replaces this one
    server.clock.advance(10 * MINUTE);
    await server.db
      .updateTable('mac_suspend_filter_requests')
      .set({ status: 'rejected' })
      .where('computer_user_id', 'in', [mac.computerUserId, second.computerUserId])
      .execute();
    await askSuspension(mac.token, 300);
    const next = await pushesSince(from + 1);
    expect(next).toHaveLength(1);
    expect(next[0]?.payload.tag).toBe(grouped[0]?.payload.tag);
    expect(next[0]?.topic).toBe(grouped[0]?.topic);
    expect(next[0]?.payload.actions).toHaveLength(2);
  });
});

describe('deciding from the notification', () => {
  async function notifiedSuspension(parent: Parent) {
    await turnOnThisDevice(parent);
    const mac = await newMac(parent);
    const from = pushService.received.length;
    const requestId = await askSuspension(mac.token);
    const [push] = await pushesSince(from);
    return { mac, requestId, payload: push?.payload };
  }

  test('"Deny" decides the request once, recorded as the person, and the Mac hears at once', async () => {
    const parent = await server.signUpVerifiedParent();
    const { mac, requestId, payload } = await notifiedSuspension(parent);
    expect(payload).toMatchObject({
      title: 'Suspension request from Sam',
      body: 'Sam asks to turn the filter off for 10 minutes. "homework video"',
      url: `/children/${mac.childId}/suspend-filter-requests/${requestId}`,
      actions: [
        { action: 'allow15', title: 'Allow 15 minutes' },
        { action: 'deny', title: 'Deny' },
      ],
      decideUrl: '/push-actions/decide',
    });
    expect(payload.actionToken).toMatch(/^[0-9a-f-]{36}\.[0-9a-f]{64}$/);

    const pushes = recordPushes(server, [mac.computerUserId]);
    const denied = await decideFromNotification(payload.actionToken, 'deny');
    pushes.stop();
    expect(denied.statusCode).toBe(200);
    expect(denied.json().message).toMatch(/^Denied/);
    expect((await suspensionStatus(requestId)).status).toBe('rejected');
    expect(pushes.to(mac.computerUserId)).toEqual([
      { case: 'filterSuspensionRequestDecided_v2', id: requestId, decision: { rejected: {} } },
    ]);
    const audit = await server.db
      .selectFrom('audit_log')
      .select(['person_email', 'entity_id'])
      .where('parent_id', '=', parent.adminId)
      .where('operation', '=', 'DecideFilterSuspensionRequest')
      .execute();
    expect(audit).toEqual([{ person_email: parent.email, entity_id: requestId }]);

    const again = await decideFromNotification(payload.actionToken, 'allow15');
    expect(again.statusCode).toBe(401);
    expect((await suspensionStatus(requestId)).status).toBe('rejected');
  });

  test('removing the phone revokes its buttons (issue 31)', async () => {
    // before: the token still decided after DeletePushSubscription
    const parent = await server.signUpVerifiedParent();
    const { requestId, payload } = await notifiedSuspension(parent);
    const subscriptions = await dashboard(parent, 'GetPushSubscriptions');
    const [phone] = subscriptions.body.subscriptions as { id: string }[];
    expect((await dashboard(parent, 'DeletePushSubscription', { id: phone!.id })).status).toBe(200);
    const late = await decideFromNotification(payload.actionToken, 'allow15');
    expect(late.statusCode).toBe(401);
    expect((await suspensionStatus(requestId)).status).toBe('pending');
  });

  test('"Allow 15 minutes" grants 900 seconds', async () => {
    const parent = await server.signUpVerifiedParent();
    const { requestId, payload } = await notifiedSuspension(parent);
    const allowed = await decideFromNotification(payload.actionToken, 'allow15');
    expect(allowed.statusCode).toBe(200);
    expect(await suspensionStatus(requestId)).toEqual({ status: 'accepted', duration: 900 });
  });

  test('a token expires after 30 minutes', async () => {
    const parent = await server.signUpVerifiedParent();
    const { requestId, payload } = await notifiedSuspension(parent);
    server.clock.advance(31 * MINUTE);
    const late = await decideFromNotification(payload.actionToken, 'deny');
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toMatch(/expired or was already used/);
    expect((await suspensionStatus(requestId)).status).toBe('pending');
  });

  test('a token is bound to its request and its family: altered, it decides nothing', async () => {
    const parent = await server.signUpVerifiedParent();
    const { requestId, payload } = await notifiedSuspension(parent);
    const [id, signature] = String(payload.actionToken).split('.');

    // another request of another family put behind the same token id: the signature no longer fits
    const other = await newMac(bob, 'Kim');
    const othersRequest = await askSuspension(other.token);
    await notificationsDelivered();
    await server.db
      .updateTable('push_action_tokens')
      .set({ request_id: othersRequest, parent_id: bob.adminId })
      .where('id', '=', id as string)
      .execute();
    expect((await decideFromNotification(payload.actionToken, 'deny')).statusCode).toBe(401);
    expect((await suspensionStatus(othersRequest)).status).toBe('pending');

    await server.db
      .updateTable('push_action_tokens')
      .set({ request_id: requestId, parent_id: parent.adminId })
      .where('id', '=', id as string)
      .execute();
    const forged = `${id}.${'0'.repeat(64)}`;
    expect((await decideFromNotification(forged, 'deny')).statusCode).toBe(401);
    expect(
      (await decideFromNotification(`${crypto.randomUUID()}.${signature}`, 'deny')).statusCode,
    ).toBe(401);
    expect((await decideFromNotification(payload.actionToken, 'maybe')).statusCode).toBe(400);
    expect((await suspensionStatus(requestId)).status).toBe('pending');
    // the genuine token still works once
    expect((await decideFromNotification(payload.actionToken, 'deny')).statusCode).toBe(200);
  });
});

describe('issue 34: a request for more screen time', () => {
  test('arrives as a push with Allow 15 minutes and Deny; Allow grants 15 minutes for today, once', async () => {
    const parent = await server.signUpVerifiedParent();
    const { browser } = await turnOnThisDevice(parent, ['suspendFilterRequestSubmitted']);
    const childId = await addChild(server, parent.adminId, { name: 'Ada' });
    const code = await addConnectionCode(server, childId);
    const connected = await server.call(
      'ConnectBrowser',
      {
        code,
        browser: 'Chrome',
        browserVersion: '142.0',
        platform: 'linux',
        extensionVersion: '1.0.0',
      },
      { namespace: 'browser-filter' },
    );
    const from = pushService.received.length;
    const asked = await server.call(
      'CreateMoreTimeRequest',
      { minutes: 30, comment: 'last level' },
      { namespace: 'browser-filter', token: connected.body.token },
    );
    expect(asked.status).toBe(200);
    const pushes = (await pushesSince(from)).filter((p) =>
      browser.endpoint.endsWith(`/${p.subscriptionId}`),
    );
    expect(pushes).toHaveLength(1);
    const payload = pushes[0]!.payload;
    expect(payload).toMatchObject({
      title: 'Ada asks for more time',
      body: 'Ada asks for 30 minutes more screen time today. "last level"',
      url: '/inbox',
      actions: [
        { action: 'allow15', title: 'Allow 15 minutes' },
        { action: 'deny', title: 'Deny' },
      ],
    });
    const allowed = await decideFromNotification(payload.actionToken, 'allow15');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().message).toBe('Allowed 15 more minutes of screen time today.');
    const row = await server.db
      .selectFrom('more_time_requests')
      .select(['status', 'granted_minutes'])
      .where('id', '=', asked.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'accepted', granted_minutes: 15 });
    // the token is spent
    expect((await decideFromNotification(payload.actionToken, 'deny')).statusCode).toBe(401);
  });
});
