import type { AdminNotificationTrigger, NotificationMethodConfig } from '@keyward/contract/shared';
import { expect } from 'vitest';
import { toDbJson, toDbTime } from '../src/db/values.ts';
import { configFingerprint, toStoredConfig } from '../src/notifications/method-config.ts';
import { createTokenService, newToken } from '../src/services/tokens.ts';
import type { FakeSlackApi } from './fakes/slack.ts';
import type { FakeSmsApi } from './fakes/sms.ts';
import type { TestServer } from './harness.ts';

// Notification methods and rules for the notifications-*.test.ts files: `add…` writes rows
// straight into the database (as ConfirmPendingNotificationMethod / SaveNotification store them).

export const SMS_ENV = {
  SMS_ACCOUNT_SID: 'AC0123456789abcdef',
  SMS_AUTH_TOKEN: 'sms-auth-secret',
  SMS_FROM: '+15005550006',
};

export const slackConfig = (
  overrides: Partial<{ channelId: string; channelName: string; token: string }> = {},
): NotificationMethodConfig => ({
  case: 'slack',
  channelId: 'C0FAMILY1',
  channelName: '#family',
  token: 'xoxb-1111-2222-secretA1b2',
  ...overrides,
});

export async function addMethod(
  server: TestServer,
  parentId: string,
  config: NotificationMethodConfig,
): Promise<string> {
  const tokens = createTokenService(server.config);
  const id = newToken();
  server.clock.advance(1); // lists are in creation order
  await server.db
    .insertInto('notification_methods')
    .values({
      id,
      parent_id: parentId,
      config: toDbJson(toStoredConfig(config, tokens)),
      config_fingerprint: configFingerprint(config, tokens),
      created_at: toDbTime(server.clock.now()),
    })
    .execute();
  return id;
}

export async function addRule(
  server: TestServer,
  parentId: string,
  methodId: string,
  trigger: AdminNotificationTrigger,
): Promise<string> {
  const id = newToken();
  server.clock.advance(1); // lists are in creation order
  await server.db
    .insertInto('notifications')
    .values({
      id,
      parent_id: parentId,
      method_id: methodId,
      trigger,
      created_at: toDbTime(server.clock.now()),
    })
    .execute();
  return id;
}

/** The account email method VerifySignupEmail created (the parent's first method). */
export async function accountEmailMethod(server: TestServer, parentId: string): Promise<string> {
  const row = await server.db
    .selectFrom('notification_methods')
    .select('id')
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function codeIn(text: string): number {
  const match = /verification code is `?(\d{6})`?/.exec(text);
  if (!match) throw new Error(`No verification code in: ${text}`);
  return Number(match[1]);
}

/** The code CreatePendingNotificationMethod just sent through this config's channel. */
export function lastCodeSent(
  server: TestServer,
  config: NotificationMethodConfig,
  fakes: { sms?: FakeSmsApi; slack?: FakeSlackApi },
): number {
  switch (config.case) {
    case 'email':
      return codeIn(
        server.lastEmailTo(config.email.trim().toLowerCase(), 'verify-notification-email').text,
      );
    case 'text': {
      const text = fakes.sms?.texts.at(-1);
      if (!text) throw new Error('No text sent');
      return codeIn(text.Body);
    }
    case 'slack': {
      const message = fakes.slack?.messages().at(-1);
      if (!message) throw new Error('No Slack message sent');
      return codeIn(message.text);
    }
  }
}

/** Creates and confirms a method through the operations; returns its id. */
export async function verifyMethod(
  server: TestServer,
  parent: { token: string },
  config: NotificationMethodConfig,
  fakes: { sms?: FakeSmsApi; slack?: FakeSlackApi } = {},
): Promise<string> {
  const created = await server.call('CreatePendingNotificationMethod', config, {
    token: parent.token,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const code = lastCodeSent(server, config, fakes);
  const confirmed = await server.call(
    'ConfirmPendingNotificationMethod',
    { id: created.body.methodId, code },
    { token: parent.token },
  );
  expect(confirmed.body).toEqual({ success: true });
  return created.body.methodId as string;
}
