import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NotificationMethodConfig } from '@keyward/contract/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fromDbJson, HOUR, MINUTE } from '../src/db/values.ts';
import { createTokenService, newToken } from '../src/services/tokens.ts';
import { type FakeSlackApi, startFakeSlackApi } from './fakes/slack.ts';
import { type FakeSmsApi, startFakeSmsApi } from './fakes/sms.ts';
import { type CallResult, createTestServer, type TestServer, uniqueEmail } from './harness.ts';
import {
  codeIn,
  lastCodeSent,
  SMS_ENV,
  slackConfig,
  verifyMethod,
} from './notifications-fixtures.ts';

// server-behaviour §3.8: CreatePendingNotificationMethod and ConfirmPendingNotificationMethod,
// with texts and Slack against local fakes of their APIs.

let server: TestServer;
let sms: FakeSmsApi;
let slack: FakeSlackApi;

beforeAll(async () => {
  sms = await startFakeSmsApi();
  slack = await startFakeSlackApi();
  server = await createTestServer({
    env: { SMS_API_URL: sms.url, SLACK_API_URL: slack.url, ...SMS_ENV },
  });
});
afterAll(async () => {
  await server?.close();
  await sms?.close();
  await slack?.close();
});

const INCORRECT = {
  type: 'unauthorized',
  debugMessage: 'incorrectConfirmationCode',
  userMessage: 'Incorrect or expired code. Please request a new one.',
  statusCode: 401,
};

function withoutRequestId(result: CallResult) {
  const { requestId: _requestId, ...rest } = result.body;
  return { status: result.status, body: rest };
}

async function pendingRows(parentId: string) {
  return server.db
    .selectFrom('pending_notification_methods')
    .selectAll()
    .where('parent_id', '=', parentId)
    .execute();
}

async function methodRows(parentId: string) {
  return server.db
    .selectFrom('notification_methods')
    .selectAll()
    .where('parent_id', '=', parentId)
    .execute();
}

describe('CreatePendingNotificationMethod', () => {
  test('email: the code goes to the address; only a pending row (code HMAC-ed, 60 minutes)', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email: '  Grandma@Example.COM ' },
      { token: parent.token },
    );
    expect(result.status).toBe(200);
    expect(result.body.methodId).toMatch(/^[0-9a-f-]{36}$/);
    const mail = server.lastEmailTo('grandma@example.com', 'verify-notification-email');
    const code = codeIn(mail.text);
    expect(code).toBeGreaterThanOrEqual(100_000);
    expect(code).toBeLessThanOrEqual(999_999);

    const [pending] = await pendingRows(parent.adminId);
    expect(pending).toMatchObject({ id: result.body.methodId });
    expect(pending!.code_hash).toBe(createTokenService(server.config).hmac(code));
    expect(pending!.code_hash).not.toContain(String(code));
    expect(new Date(pending!.expires_at).getTime() - server.clock.now().getTime()).toBe(HOUR);
    expect(fromDbJson(pending!.config)).toEqual({ case: 'email', email: 'grandma@example.com' });
    // nothing verified yet: only the account email method from signup
    expect(await methodRows(parent.adminId)).toHaveLength(1);
  });

  test('text: the code goes through the SMS API (basic auth, From/To/Body form fields)', async () => {
    const parent = await server.signUpVerifiedParent();
    const before = sms.texts.length;
    const result = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'text', phoneNumber: '(415) 555-2671' },
      { token: parent.token },
    );
    expect(result.status).toBe(200);
    expect(sms.texts).toHaveLength(before + 1);
    const text = sms.texts.at(-1)!;
    expect(text.path).toBe(`/2010-04-01/Accounts/${SMS_ENV.SMS_ACCOUNT_SID}/Messages.json`);
    expect(text.auth).toEqual({
      username: SMS_ENV.SMS_ACCOUNT_SID,
      password: SMS_ENV.SMS_AUTH_TOKEN,
    });
    expect(text.contentType).toContain('application/x-www-form-urlencoded');
    expect(text.From).toBe(SMS_ENV.SMS_FROM);
    expect(text.To).toBe('+14155552671');
    expect(text.Body).toMatch(/^Your verification code is \d{6}$/);
    const [pending] = await pendingRows(parent.adminId);
    expect(fromDbJson(pending!.config)).toEqual({ case: 'text', phoneNumber: '+14155552671' });
  });

  test('Slack: the code is posted with the bot token; the token is stored encrypted', async () => {
    const parent = await server.signUpVerifiedParent();
    const config = slackConfig({ token: 'xoxb-create-test-9Z8y' });
    const result = await server.call('CreatePendingNotificationMethod', config, {
      token: parent.token,
    });
    expect(result.status).toBe(200);
    const message = slack.messages().at(-1)!;
    expect(message).toMatchObject({
      token: 'xoxb-create-test-9Z8y',
      channel: 'C0FAMILY1',
      username: 'Keyward',
    });
    expect(message.text).toMatch(/^Your verification code is `\d{6}`$/);
    const [pending] = await pendingRows(parent.adminId);
    expect(JSON.stringify(pending)).not.toContain('xoxb-create-test');
  });

  test('a failed Slack post is 401 df619205 slackVerificationFailed, and leaves no pending row', async () => {
    const parent = await server.signUpVerifiedParent();
    slack.fail('not_in_channel');
    try {
      const result = await server.call('CreatePendingNotificationMethod', slackConfig(), {
        token: parent.token,
      });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({
        id: 'df619205',
        type: 'unauthorized',
        dashboardTag: 'slackVerificationFailed',
      });
      expect(result.body.debugMessage).toContain('not_in_channel');
      expect(result.body.userMessage).toMatch(/Slack/);
      expect(JSON.stringify(result.body)).not.toContain('xoxb-');
    } finally {
      slack.succeed();
    }
    expect(await pendingRows(parent.adminId)).toEqual([]);
  });

  test('an HTTP error from Slack is the same 401', async () => {
    const parent = await server.signUpVerifiedParent();
    slack.fail('', { httpStatus: 503 });
    try {
      const result = await server.call('CreatePendingNotificationMethod', slackConfig(), {
        token: parent.token,
      });
      expect([result.status, result.body.id]).toEqual([401, 'df619205']);
    } finally {
      slack.succeed();
    }
  });

  test('a failed text is a 500 with the contract body, and leaves no pending row', async () => {
    const parent = await server.signUpVerifiedParent();
    sms.fail(400, { code: 21211, message: 'Invalid To' });
    try {
      const result = await server.call(
        'CreatePendingNotificationMethod',
        { case: 'text', phoneNumber: '+442071838750' },
        { token: parent.token },
      );
      expect(result.status).toBe(500);
      expect(result.body).toMatchObject({ type: 'serverError', showContactSupport: true });
      expect(result.body.userMessage).toContain('text message');
    } finally {
      sms.succeed();
    }
    expect(await pendingRows(parent.adminId)).toEqual([]);
  });

  test('a failed verification email is a 500 with the contract body, and leaves no pending row', async () => {
    const parent = await server.signUpVerifiedParent();
    // the harness's mailer records into server.mails: make recording (so sending) fail once
    server.mails.push = () => {
      throw new Error('SMTP connection refused');
    };
    try {
      const result = await server.call(
        'CreatePendingNotificationMethod',
        { case: 'email', email: uniqueEmail('unreachable') },
        { token: parent.token },
      );
      expect(result.status).toBe(500);
      expect(result.body).toMatchObject({ type: 'serverError', showContactSupport: true });
      expect(result.body.userMessage).toContain('verification email');
    } finally {
      delete (server.mails as { push?: unknown }).push;
    }
    expect(await pendingRows(parent.adminId)).toEqual([]);
  });

  test.each<[string, NotificationMethodConfig, string]>([
    ['email without @', { case: 'email', email: 'grandma.example.com' }, 'valid email'],
    ['phone too short', { case: 'text', phoneNumber: '12345' }, 'valid phone number'],
    ['phone too long', { case: 'text', phoneNumber: '+1234567890123456' }, 'valid phone number'],
    ['user token', slackConfig({ token: 'xoxp-123' }), 'xoxb-'],
    ['channel name of 1', slackConfig({ channelName: '#' }), 'channel name'],
    ['channel id of 3', slackConfig({ channelId: 'C01' }), 'channel ID'],
  ])('%s → 400 with a clear message, nothing sent', async (_label, config, words) => {
    const parent = await server.signUpVerifiedParent();
    const sent = [sms.texts.length, slack.calls.length, server.mails.length];
    const result = await server.call('CreatePendingNotificationMethod', config, {
      token: parent.token,
    });
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toContain(words);
    expect([sms.texts.length, slack.calls.length, server.mails.length]).toEqual(sent);
    expect(await pendingRows(parent.adminId)).toEqual([]);
  });

  test('a method equal to a verified one is refused (the account email, in any case)', async () => {
    const parent = await server.signUpVerifiedParent();
    const same = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email: parent.email.toUpperCase() },
      { token: parent.token },
    );
    expect(same.status).toBe(400);
    expect(same.body.userMessage).toBe('You already have this notification method.');

    await verifyMethod(server, parent, slackConfig(), { slack });
    const again = await server.call('CreatePendingNotificationMethod', slackConfig(), {
      token: parent.token,
    });
    expect([again.status, again.body.userMessage]).toEqual([
      400,
      'You already have this notification method.',
    ]);
    // another parent may verify the same channel
    const other = await server.signUpVerifiedParent();
    await verifyMethod(server, other, slackConfig(), { slack });
  });
});

describe('ConfirmPendingNotificationMethod', () => {
  async function createPending(parent: { token: string }, config: NotificationMethodConfig) {
    const created = await server.call('CreatePendingNotificationMethod', config, {
      token: parent.token,
    });
    expect(created.status).toBe(200);
    return {
      methodId: created.body.methodId as string,
      code: lastCodeSent(server, config, { sms, slack }),
    };
  }

  test('the right code verifies the method under the methodId; GetAdmin shows it, token redacted', async () => {
    const parent = await server.signUpVerifiedParent();
    const config = slackConfig({ token: 'xoxb-confirm-secret-Q7w3' });
    const { methodId, code } = await createPending(parent, config);
    const result = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: methodId.toUpperCase(), code },
      { token: parent.token },
    );
    expect(result.body).toEqual({ success: true });
    expect(await pendingRows(parent.adminId)).toEqual([]);
    const admin = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(admin.body.verifiedNotificationMethods).toContainEqual({
      id: methodId,
      config: {
        case: 'slack',
        channelId: 'C0FAMILY1',
        channelName: '#family',
        token: 'xoxb-…Q7w3',
      },
    });
    expect(JSON.stringify(admin.body)).not.toContain('confirm-secret');
    const stored = (await methodRows(parent.adminId)).find((m) => m.id === methodId)!;
    expect(JSON.stringify(stored)).not.toContain('confirm-secret');
  });

  // issue 20: a typo does not end the attempt; the third wrong code does
  test('three tries: wrong codes keep the pending method and say how many tries remain', async () => {
    const parent = await server.signUpVerifiedParent();
    const { methodId, code } = await createPending(parent, { case: 'email', email: uniqueEmail() });
    const wrongCode = code === 999_999 ? 100_000 : code + 1;
    const attempt = (c: number) =>
      server.call(
        'ConfirmPendingNotificationMethod',
        { id: methodId, code: c },
        {
          token: parent.token,
        },
      );
    const first = await attempt(wrongCode);
    expect(first.status).toBe(401);
    expect(first.body).toMatchObject({
      debugMessage: 'incorrectConfirmationCode',
      userMessage: 'Incorrect code. Check it and try again: 2 tries left.',
      dashboardTag: 'incorrectCodeTryAgain',
    });
    expect(await pendingRows(parent.adminId)).toHaveLength(1);
    expect((await attempt(wrongCode)).body.userMessage).toBe(
      'Incorrect code. Check it and try again: 1 try left.',
    );
    const right = await attempt(code);
    expect(right.body).toEqual({ success: true });
    expect(await methodRows(parent.adminId)).toHaveLength(2);
  });

  test('three tries: the third wrong code deletes the pending method, so the right one fails after it', async () => {
    const parent = await server.signUpVerifiedParent();
    const { methodId, code } = await createPending(parent, { case: 'email', email: uniqueEmail() });
    const wrongCode = code === 999_999 ? 100_000 : code + 1;
    const attempt = (c: number) =>
      server.call(
        'ConfirmPendingNotificationMethod',
        { id: methodId, code: c },
        {
          token: parent.token,
        },
      );
    await attempt(wrongCode);
    await attempt(wrongCode);
    const wrong = await attempt(wrongCode);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject(INCORRECT);
    expect(wrong.body.dashboardTag).toBeUndefined();
    expect(await pendingRows(parent.adminId)).toEqual([]);

    const right = await attempt(code);
    expect(withoutRequestId(right)).toEqual(withoutRequestId(wrong));
    expect(await methodRows(parent.adminId)).toHaveLength(1); // the account email only
  });

  test('three tries: ten parallel wrong codes evaluate at most three, then the code is spent', async () => {
    const parent = await server.signUpVerifiedParent();
    const { methodId, code } = await createPending(parent, { case: 'email', email: uniqueEmail() });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.call(
          'ConfirmPendingNotificationMethod',
          { id: methodId, code: 100_000 + ((code + 1 + i) % 900_000) },
          { token: parent.token },
        ),
      ),
    );
    expect(results.every((r) => r.status === 401)).toBe(true);
    expect(results.filter((r) => r.body.dashboardTag === 'incorrectCodeTryAgain')).toHaveLength(2);
    expect(await pendingRows(parent.adminId)).toEqual([]);
  });

  test('one try: a right code cannot be used twice', async () => {
    const parent = await server.signUpVerifiedParent();
    const { methodId, code } = await createPending(parent, {
      case: 'text',
      phoneNumber: '+33123456789',
    });
    const first = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: methodId, code },
      { token: parent.token },
    );
    expect(first.body).toEqual({ success: true });
    const second = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: methodId, code },
      { token: parent.token },
    );
    expect(second.body).toMatchObject(INCORRECT);
  });

  test('one try: two simultaneous confirmations with the right code verify it once', async () => {
    const parent = await server.signUpVerifiedParent();
    const { methodId, code } = await createPending(parent, {
      case: 'email',
      email: uniqueEmail('race'),
    });
    const results = await Promise.all(
      [1, 2].map(() =>
        server.call(
          'ConfirmPendingNotificationMethod',
          { id: methodId, code },
          { token: parent.token },
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(await methodRows(parent.adminId)).toHaveLength(2);
  });

  test('the code works until 60 minutes, not at 60 minutes', async () => {
    const parent = await server.signUpVerifiedParent();
    const early = await createPending(parent, { case: 'email', email: uniqueEmail('early') });
    const late = await createPending(parent, { case: 'email', email: uniqueEmail('late') });
    server.clock.advance(60 * MINUTE - 1000);
    const inTime = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: early.methodId, code: early.code },
      { token: parent.token },
    );
    expect(inTime.body).toEqual({ success: true });
    server.clock.advance(1000);
    const expired = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: late.methodId, code: late.code },
      { token: parent.token },
    );
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject(INCORRECT);
    expect(await pendingRows(parent.adminId)).toEqual([]);
  });

  test("another parent's pending method answers exactly like an unknown id, and survives", async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const alices = await createPending(alice, { case: 'email', email: uniqueEmail('alice-2nd') });

    const foreign = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: alices.methodId, code: alices.code },
      { token: bob.token },
    );
    const unknown = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: newToken(), code: alices.code },
      { token: bob.token },
    );
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject(INCORRECT);
    expect(withoutRequestId(foreign)).toEqual(withoutRequestId(unknown));
    expect(await methodRows(bob.adminId)).toHaveLength(1);

    // Bob's attempt neither verified nor spent Alice's pending method
    expect(await pendingRows(alice.adminId)).toHaveLength(1);
    const own = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: alices.methodId, code: alices.code },
      { token: alice.token },
    );
    expect(own.body).toEqual({ success: true });
  });

  test('two pending rows for one method: the second confirmation is a clear 400', async () => {
    const parent = await server.signUpVerifiedParent();
    const config: NotificationMethodConfig = { case: 'email', email: uniqueEmail('twice') };
    const first = await createPending(parent, config);
    const second = await createPending(parent, config);
    expect(
      (
        await server.call(
          'ConfirmPendingNotificationMethod',
          { id: first.methodId, code: first.code },
          { token: parent.token },
        )
      ).body,
    ).toEqual({ success: true });
    const result = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: second.methodId, code: second.code },
      { token: parent.token },
    );
    expect([result.status, result.body.userMessage]).toEqual([
      400,
      'You already have this notification method.',
    ]);
    expect(await methodRows(parent.adminId)).toHaveLength(2);
  });
});

describe('rate limits and the outbox (no SMS or Slack configured, scale 1)', () => {
  let local: TestServer;
  beforeAll(async () => {
    local = await createTestServer({ env: { RATE_LIMIT_SCALE: '1', SLACK_API_URL: 'outbox' } });
  });
  afterAll(async () => local?.close());

  function outboxFiles(kind: string) {
    const dir = path.join(local.config.dataDir, 'outbox');
    return readdirSync(dir)
      .filter((file) => file.includes(`-${kind}-`))
      .map((file) => readFileSync(path.join(dir, file), 'utf8'));
  }

  test('texts and Slack codes are written to DATA_DIR/outbox and can be confirmed from there', async () => {
    const parent = await local.signUpVerifiedParent();
    const text = await local.call(
      'CreatePendingNotificationMethod',
      { case: 'text', phoneNumber: '+14155552671' },
      { token: parent.token },
    );
    expect(text.status).toBe(200);
    const [textFile] = outboxFiles('text');
    expect(textFile).toContain('To: +14155552671');
    const confirmed = await local.call(
      'ConfirmPendingNotificationMethod',
      { id: text.body.methodId, code: codeIn(textFile!) },
      { token: parent.token },
    );
    expect(confirmed.body).toEqual({ success: true });

    const slackResult = await local.call('CreatePendingNotificationMethod', slackConfig(), {
      token: parent.token,
    });
    expect(slackResult.status).toBe(200);
    const [slackFile] = outboxFiles('slack');
    expect(slackFile).toContain('#family (C0FAMILY1)');
    expect(slackFile).not.toContain('xoxb-');
    expect(codeIn(slackFile!)).toBeGreaterThanOrEqual(100_000);
  });

  test('a sixth new method within an hour is 429; confirmations have their own budget of 10', async () => {
    local.clock.advance(HOUR);
    const parent = await local.signUpVerifiedParent();
    for (let i = 0; i < 5; i++) {
      const result = await local.call(
        'CreatePendingNotificationMethod',
        { case: 'email', email: uniqueEmail(`rl${i}`) },
        { token: parent.token },
      );
      expect(result.status).toBe(200);
    }
    const limited = await local.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email: uniqueEmail('rl6') },
      { token: parent.token },
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another parent is not limited by it
    const other = await local.signUpVerifiedParent();
    expect(
      (
        await local.call(
          'CreatePendingNotificationMethod',
          { case: 'email', email: uniqueEmail('free') },
          { token: other.token },
        )
      ).status,
    ).toBe(200);

    for (let i = 0; i < 10; i++) {
      const attempt = await local.call(
        'ConfirmPendingNotificationMethod',
        { id: newToken(), code: 123456 },
        { token: parent.token },
      );
      expect(attempt.status).toBe(401);
    }
    const tooMany = await local.call(
      'ConfirmPendingNotificationMethod',
      { id: newToken(), code: 123456 },
      { token: parent.token },
    );
    expect(tooMany.status).toBe(429);
  });
});
