import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newToken } from '../src/services/tokens.ts';
import { addChildWithComputer, securityEvents } from './fixtures.ts';
import { type CallResult, createTestServer, type TestServer } from './harness.ts';
import { accountEmailMethod, addMethod, addRule, slackConfig } from './notifications-fixtures.ts';

// server-behaviour §3.8 SaveNotification, §3.2 DeleteEntity_v2 parentNotification and
// parentVerifiedNotificationMethod (the spec's deletable flag), GetAdmin's notification fields.

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => server?.close());

type Parent = Awaited<ReturnType<TestServer['signUpVerifiedParent']>>;

function comparable(result: CallResult) {
  const { requestId: _requestId, ...rest } = result.body;
  return { status: result.status, body: rest };
}

async function rulesOf(parent: Parent) {
  return (await server.call('GetAdmin', undefined, { token: parent.token })).body.notifications;
}

const text = { case: 'text' as const, phoneNumber: '+14155552671' };

describe('SaveNotification', () => {
  test('a new rule with the client id, on an own verified method, then an update', async () => {
    const parent = await server.signUpVerifiedParent();
    const emailMethod = await accountEmailMethod(server, parent.adminId);
    const textMethod = await addMethod(server, parent.adminId, text);
    const id = newToken();
    const created = await server.call(
      'SaveNotification',
      { id, isNew: true, methodId: emailMethod, trigger: 'suspendFilterRequestSubmitted' },
      { token: parent.token },
    );
    expect(created.body).toEqual({ success: true });
    expect(await rulesOf(parent)).toEqual([
      { id, trigger: 'suspendFilterRequestSubmitted', methodId: emailMethod },
    ]);

    const updated = await server.call(
      'SaveNotification',
      { id, isNew: false, methodId: textMethod, trigger: 'unlockRequestSubmitted' },
      { token: parent.token },
    );
    expect(updated.body).toEqual({ success: true });
    expect(await rulesOf(parent)).toEqual([
      { id, trigger: 'unlockRequestSubmitted', methodId: textMethod },
    ]);
    // saving it unchanged is fine (it is not its own duplicate)
    const same = await server.call(
      'SaveNotification',
      { id, isNew: false, methodId: textMethod, trigger: 'unlockRequestSubmitted' },
      { token: parent.token },
    );
    expect(same.body).toEqual({ success: true });
  });

  test('a second rule for the same method and trigger is a 400 with a clear message', async () => {
    const parent = await server.signUpVerifiedParent();
    const method = await accountEmailMethod(server, parent.adminId);
    const first = await addRule(server, parent.adminId, method, 'unlockRequestSubmitted');
    const duplicate = await server.call(
      'SaveNotification',
      { id: newToken(), isNew: true, methodId: method, trigger: 'unlockRequestSubmitted' },
      { token: parent.token },
    );
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({
      type: 'badRequest',
      userMessage: 'You already have a notification for unlock requests through this method.',
    });

    // an update onto an existing pair is refused the same way, the rule unchanged
    const other = await addRule(server, parent.adminId, method, 'suspendFilterRequestSubmitted');
    const clash = await server.call(
      'SaveNotification',
      { id: other, isNew: false, methodId: method, trigger: 'unlockRequestSubmitted' },
      { token: parent.token },
    );
    expect([clash.status, clash.body.userMessage]).toEqual([400, duplicate.body.userMessage]);
    expect(await rulesOf(parent)).toEqual([
      { id: first, trigger: 'unlockRequestSubmitted', methodId: method },
      { id: other, trigger: 'suspendFilterRequestSubmitted', methodId: method },
    ]);
  });

  test("another parent's method is refused like a missing one", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const bobsMethod = await accountEmailMethod(server, bob.adminId);
    const input = { isNew: true, trigger: 'unlockRequestSubmitted' as const };
    const foreign = await server.call(
      'SaveNotification',
      { ...input, id: newToken(), methodId: bobsMethod },
      { token: alice.token },
    );
    const missing = await server.call(
      'SaveNotification',
      { ...input, id: newToken(), methodId: newToken() },
      { token: alice.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ id: '6ac1205a', entityName: 'NotificationMethod' });
    expect(comparable(foreign)).toEqual(comparable(missing));
    expect(await rulesOf(alice)).toEqual([]);
    expect(await rulesOf(bob)).toEqual([]);
  });

  test("another parent's rule can be neither updated nor overwritten by an isNew save", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const alicesMethod = await accountEmailMethod(server, alice.adminId);
    const bobsMethod = await accountEmailMethod(server, bob.adminId);
    const bobsRule = await addRule(server, bob.adminId, bobsMethod, 'unlockRequestSubmitted');
    const input = { methodId: alicesMethod, trigger: 'suspendFilterRequestSubmitted' as const };

    const foreign = await server.call(
      'SaveNotification',
      { ...input, id: bobsRule, isNew: false },
      { token: alice.token },
    );
    const missing = await server.call(
      'SaveNotification',
      { ...input, id: newToken(), isNew: false },
      { token: alice.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ id: '6ac1205a', entityName: 'Notification' });
    expect(comparable(foreign)).toEqual(comparable(missing));

    const taken = await server.call(
      'SaveNotification',
      { ...input, id: bobsRule, isNew: true },
      { token: alice.token },
    );
    expect([taken.status, taken.body.type]).toEqual([400, 'badRequest']);
    expect(await rulesOf(bob)).toEqual([
      { id: bobsRule, trigger: 'unlockRequestSubmitted', methodId: bobsMethod },
    ]);
    expect(await rulesOf(alice)).toEqual([]);
  });

  test('an unknown trigger is a 400 naming the field', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call(
      'SaveNotification',
      {
        id: newToken(),
        isNew: true,
        methodId: await accountEmailMethod(server, parent.adminId),
        trigger: 'everything',
      },
      { token: parent.token },
    );
    expect([result.status, result.body.type]).toEqual([400, 'badRequest']);
  });
});

describe('DeleteEntity_v2 parentNotification', () => {
  test('deletes an own rule and records notificationDeleted', async () => {
    const parent = await server.signUpVerifiedParent();
    const method = await accountEmailMethod(server, parent.adminId);
    const rule = await addRule(server, parent.adminId, method, 'unlockRequestSubmitted');
    const kept = await addRule(server, parent.adminId, method, 'suspendFilterRequestSubmitted');
    const result = await server.call(
      'DeleteEntity_v2',
      { id: rule.toUpperCase(), type: 'parentNotification' },
      { token: parent.token },
    );
    expect(result.body).toEqual({ success: true });
    expect(await rulesOf(parent)).toEqual([
      { id: kept, trigger: 'suspendFilterRequestSubmitted', methodId: method },
    ]);
    expect(await securityEvents(server, parent.adminId, 'notificationDeleted')).toEqual([
      expect.objectContaining({
        detail: 'trigger: unlockRequestSubmitted',
        computer_user_id: null,
      }),
    ]);
  });

  test("another parent's rule is refused like a missing one, and survives", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const bobsRule = await addRule(
      server,
      bob.adminId,
      await accountEmailMethod(server, bob.adminId),
      'unlockRequestSubmitted',
    );
    const foreign = await server.call(
      'DeleteEntity_v2',
      { id: bobsRule, type: 'parentNotification' },
      { token: alice.token },
    );
    const missing = await server.call(
      'DeleteEntity_v2',
      { id: newToken(), type: 'parentNotification' },
      { token: alice.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ id: '6ac1205a', entityName: 'Notification' });
    expect(comparable(foreign)).toEqual(comparable(missing));
    expect(await rulesOf(bob)).toHaveLength(1);
    expect(await securityEvents(server, alice.adminId, 'notificationDeleted')).toEqual([]);
  });
});

describe('DeleteEntity_v2 parentVerifiedNotificationMethod', () => {
  async function methodIds(parent: Parent) {
    const admin = await server.call('GetAdmin', undefined, { token: parent.token });
    return admin.body.verifiedNotificationMethods.map((m: { id: string }) => m.id);
  }

  test('an unused method is deleted', async () => {
    const parent = await server.signUpVerifiedParent();
    const slack = await addMethod(server, parent.adminId, slackConfig());
    const result = await server.call(
      'DeleteEntity_v2',
      { id: slack, type: 'parentVerifiedNotificationMethod' },
      { token: parent.token },
    );
    expect(result.body).toEqual({ success: true });
    expect(await methodIds(parent)).not.toContain(slack);
  });

  test('a method in use by a notification cannot be deleted (400), until the rule is gone', async () => {
    const parent = await server.signUpVerifiedParent();
    const method = await addMethod(server, parent.adminId, text);
    const rule = await addRule(server, parent.adminId, method, 'unlockRequestSubmitted');
    const refused = await server.call(
      'DeleteEntity_v2',
      { id: method, type: 'parentVerifiedNotificationMethod' },
      { token: parent.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.userMessage).toBe(
      'This notification method is used by a notification. Delete or change that notification first.',
    );
    expect(await methodIds(parent)).toContain(method);
    expect(await rulesOf(parent)).toHaveLength(1);

    await server.call(
      'DeleteEntity_v2',
      { id: rule, type: 'parentNotification' },
      { token: parent.token },
    );
    const deleted = await server.call(
      'DeleteEntity_v2',
      { id: method, type: 'parentVerifiedNotificationMethod' },
      { token: parent.token },
    );
    expect(deleted.body).toEqual({ success: true });
  });

  test("the account's own email method cannot be deleted; another email method can", async () => {
    const parent = await server.signUpVerifiedParent();
    const own = await accountEmailMethod(server, parent.adminId);
    const refused = await server.call(
      'DeleteEntity_v2',
      { id: own, type: 'parentVerifiedNotificationMethod' },
      { token: parent.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.userMessage).toBe(
      "Your account's email address can't be removed as a notification method.",
    );
    const other = await addMethod(server, parent.adminId, {
      case: 'email',
      email: 'co-parent@example.com',
    });
    const deleted = await server.call(
      'DeleteEntity_v2',
      { id: other, type: 'parentVerifiedNotificationMethod' },
      { token: parent.token },
    );
    expect(deleted.body).toEqual({ success: true });
    expect(await methodIds(parent)).toEqual([own]);
  });

  test("another parent's method is refused like a missing one, and survives", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const bobsSlack = await addMethod(server, bob.adminId, slackConfig());
    const foreign = await server.call(
      'DeleteEntity_v2',
      { id: bobsSlack, type: 'parentVerifiedNotificationMethod' },
      { token: alice.token },
    );
    const missing = await server.call(
      'DeleteEntity_v2',
      { id: newToken(), type: 'parentVerifiedNotificationMethod' },
      { token: alice.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ id: '6ac1205a', entityName: 'NotificationMethod' });
    expect(comparable(foreign)).toEqual(comparable(missing));
    expect(await methodIds(bob)).toContain(bobsSlack);
  });
});

describe('GetAdmin notification fields', () => {
  test('rules, methods (Slack token redacted) and hasAdminChild, of the own account only', async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const own = await accountEmailMethod(server, alice.adminId);
    const slack = await addMethod(
      server,
      alice.adminId,
      slackConfig({ token: 'xoxb-admin-view-Zz90' }),
    );
    const phone = await addMethod(server, alice.adminId, text);
    const r1 = await addRule(server, alice.adminId, slack, 'unlockRequestSubmitted');
    const r2 = await addRule(server, alice.adminId, phone, 'adminChildSecurityEvent');
    await addRule(
      server,
      bob.adminId,
      await accountEmailMethod(server, bob.adminId),
      'unlockRequestSubmitted',
    );

    let view = (await server.call('GetAdmin', undefined, { token: alice.token })).body;
    expect(view.hasAdminChild).toBe(false);
    expect(view.notifications).toEqual([
      { id: r1, trigger: 'unlockRequestSubmitted', methodId: slack },
      { id: r2, trigger: 'adminChildSecurityEvent', methodId: phone },
    ]);
    expect(view.verifiedNotificationMethods).toEqual([
      { id: own, config: { case: 'email', email: alice.email } },
      { id: slack, config: { ...slackConfig(), token: 'xoxb-…Zz90' } },
      { id: phone, config: text },
    ]);
    expect(JSON.stringify(view)).not.toContain('admin-view');

    await addChildWithComputer(server, alice.adminId, { isAdmin: true });
    view = (await server.call('GetAdmin', undefined, { token: alice.token })).body;
    expect(view.hasAdminChild).toBe(true);
    expect(
      (await server.call('GetAdmin', undefined, { token: bob.token })).body.hasAdminChild,
    ).toBe(false);
  });
});
