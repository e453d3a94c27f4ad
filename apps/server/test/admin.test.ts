import { existsSync } from 'node:fs';
import { DeletableEntityType } from '@keyward/contract/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DAY, fromDbJson, HOUR, toDbJson, toDbTime } from '../src/db/values.ts';
import { configFingerprint, toStoredConfig } from '../src/notifications/method-config.ts';
import { createTokenService, newToken } from '../src/services/tokens.ts';
import { addChildWithComputer } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => server.close());

const now = () => toDbTime(server.clock.now());

describe('GetAdmin', () => {
  test('shows only the own account, methods and notifications', async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const tokens = createTokenService(server.config);
    const slack = {
      case: 'slack' as const,
      channelId: 'C0123',
      channelName: '#family',
      token: 'xoxb-secret-a1b2',
    };
    const slackId = newToken();
    await server.db
      .insertInto('notification_methods')
      .values({
        id: slackId,
        parent_id: alice.adminId,
        config: toDbJson(toStoredConfig(slack, tokens)),
        config_fingerprint: configFingerprint(slack, tokens),
        created_at: now(),
      })
      .execute();
    const stored = await server.db
      .selectFrom('notification_methods')
      .select('config')
      .where('id', '=', slackId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(fromDbJson(stored.config))).not.toContain('xoxb-secret');
    const ruleId = newToken();
    await server.db
      .insertInto('notifications')
      .values({
        id: ruleId,
        parent_id: alice.adminId,
        method_id: slackId,
        trigger: 'unlockRequestSubmitted',
        created_at: now(),
      })
      .execute();
    await addChildWithComputer(server, alice.adminId, { isAdmin: true });

    const aliceView = await server.call('GetAdmin', undefined, { token: alice.token });
    expect(aliceView.body).toMatchObject({
      id: alice.adminId,
      email: alice.email,
      hasAdminChild: true,
      monthlyPriceInDollars: 10,
      notifications: [{ id: ruleId, trigger: 'unlockRequestSubmitted', methodId: slackId }],
    });
    expect(aliceView.body.verifiedNotificationMethods).toContainEqual({
      id: slackId,
      config: { case: 'slack', channelId: 'C0123', channelName: '#family', token: 'xoxb-…a1b2' },
    });

    const bobView = await server.call('GetAdmin', undefined, { token: bob.token });
    expect(bobView.body).toMatchObject({
      id: bob.adminId,
      email: bob.email,
      hasAdminChild: false,
      notifications: [],
    });
    expect(bobView.body.verifiedNotificationMethods).toEqual([
      { id: expect.any(String), config: { case: 'email', email: bob.email } },
    ]);
    expect(JSON.stringify(bobView.body)).not.toContain(alice.email);
  });

  test('a non-admin macOS user does not make hasAdminChild true', async () => {
    const parent = await server.signUpVerifiedParent();
    await addChildWithComputer(server, parent.adminId, { isAdmin: false });
    const view = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(view.body.hasAdminChild).toBe(false);
  });

  test('daysLeft counts up to the real end of the trial, rounded up', async () => {
    const parent = await server.signUpVerifiedParent();
    server.clock.advance(1.5 * DAY);
    let view = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(view.body.subscriptionStatus).toEqual({ case: 'trialing', daysLeft: 20 });

    await server.db
      .updateTable('parents')
      .set({
        subscription_status: 'trialExpiringSoon',
        subscription_status_expiration: toDbTime(
          new Date(server.clock.now().getTime() + 2 * DAY + HOUR),
        ),
      })
      .where('id', '=', parent.adminId)
      .execute();
    view = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(view.body.subscriptionStatus).toEqual({ case: 'trialing', daysLeft: 3 });
  });

  test.each([
    ['complimentary', { case: 'complimentary' }],
    ['paid', { case: 'paid' }],
    ['overdue', { case: 'overdue' }],
    ['unpaid', { case: 'unpaid' }],
    ['pendingAccountDeletion', { case: 'unpaid' }],
  ] as const)('status %s is shown as %j', async (status, expected) => {
    const parent = await server.signUpVerifiedParent();
    await server.db
      .updateTable('parents')
      .set({ subscription_status: status })
      .where('id', '=', parent.adminId)
      .execute();
    const view = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(view.body.subscriptionStatus).toEqual(expected);
  });
});

describe('DeleteEntity_v2 parent', () => {
  test('deletes the own account after recording it', async () => {
    const parent = await server.signUpVerifiedParent();
    await addChildWithComputer(server, parent.adminId, { isAdmin: true });
    const result = await server.call(
      'DeleteEntity_v2',
      { id: parent.adminId.toUpperCase(), type: 'parent' },
      { token: parent.token },
    );
    expect(result.body).toEqual({ success: true });
    expect(
      await server.db.selectFrom('parents').select('id').where('id', '=', parent.adminId).execute(),
    ).toEqual([]);
    for (const table of [
      'dashboard_sessions',
      'children',
      'computers',
      'notification_methods',
      'security_events',
    ] as const) {
      const rows = await server.db
        .selectFrom(table)
        .select('id')
        .where('parent_id', '=', parent.adminId)
        .execute();
      expect(rows, table).toEqual([]);
    }
    const records = await server.db.selectFrom('deleted_entities').selectAll().execute();
    const record = records.find((r) => fromDbJson<{ id: string }>(r.data).id === parent.adminId);
    expect(record).toMatchObject({
      type: 'Admin',
      reason: 'self-deleted from use-case initial screen',
    });
    expect(JSON.stringify(fromDbJson(record!.data))).not.toContain('argon2');
    expect((await server.call('GetAdmin', undefined, { token: parent.token })).body.id).toBe(
      '8df93d61',
    );
  });

  test("another parent's id is notFound and that account survives", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const result = await server.call(
      'DeleteEntity_v2',
      { id: alice.adminId, type: 'parent' },
      { token: bob.token },
    );
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ id: '6ac1205a', type: 'notFound', entityName: 'Parent' });
    expect((await server.call('GetAdmin', undefined, { token: alice.token })).body.email).toBe(
      alice.email,
    );
    expect((await server.call('GetAdmin', undefined, { token: bob.token })).status).toBe(200);
  });

  test('a type without a handler yet says so honestly', async () => {
    const missing = DeletableEntityType.options.find(
      (type) =>
        !existsSync(
          new URL(`../src/operations/dashboard/delete-entity/${type}.ts`, import.meta.url),
        ),
    );
    if (!missing) return;
    const parent = await server.signUpVerifiedParent();
    const result = await server.call(
      'DeleteEntity_v2',
      { id: newToken(), type: missing },
      { token: parent.token },
    );
    expect(result.status).toBe(404);
    expect(result.body.debugMessage).toContain('not available yet');
  });
});

describe('Logout', () => {
  test("one parent's logout never touches another parent's session", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    await server.call('Logout', undefined, { token: bob.token });
    expect((await server.call('GetAdmin', undefined, { token: alice.token })).status).toBe(200);
  });
});
