import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { toDbTime } from '../src/db/values.ts';
import {
  type NotifyContext,
  notifyParent,
  type ParentNotification,
} from '../src/notifications/dispatch.ts';
import type { Services } from '../src/pairql/context.ts';
import { createEmailService, type Mailer, type OutgoingEmail } from '../src/services/mail.ts';
import { createRateLimiter } from '../src/pairql/rate-limit.ts';
import { createSlackSender } from '../src/services/slack.ts';
import { createSmsSender } from '../src/services/sms.ts';
import { createTokenService, newToken } from '../src/services/tokens.ts';
import { recordingLogger } from './fakes/log.ts';
import { type FakeSlackApi, startFakeSlackApi } from './fakes/slack.ts';
import { type FakeSmsApi, startFakeSmsApi } from './fakes/sms.ts';
import { addChildWithComputer } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';
import {
  accountEmailMethod,
  addMethod,
  addRule,
  SMS_ENV,
  slackConfig,
} from './notifications-fixtures.ts';

// server-behaviour §6: notifyParent's dispatch rule, the §6.2 contents and links, and each channel
// against a local fake of its API — success, and failure (logged, the others still sent, never thrown).

const DASHBOARD = 'https://dash.example.com';

let server: TestServer;
let sms: FakeSmsApi;
let slack: FakeSlackApi;
let mails: OutgoingEmail[];
let logged: ReturnType<typeof recordingLogger>;
let ctx: NotifyContext;
let failingMailer = false;

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

beforeEach(() => {
  sms.texts.length = 0;
  slack.calls.length = 0;
  sms.succeed();
  slack.succeed();
  failingMailer = false;
  mails = [];
  logged = recordingLogger();
  const mailer: Mailer = {
    async send(email) {
      if (failingMailer) throw new Error('SMTP connection refused');
      mails.push(email);
    },
  };
  const { config, clock } = server;
  ctx = {
    db: server.db,
    config,
    clock,
    log: logged.log,
    dashboardUrl: DASHBOARD,
    // the real services notifyParent uses, built as app.ts builds them
    services: {
      email: createEmailService(mailer, config, clock),
      sms: createSmsSender(config, logged.log),
      slack: createSlackSender(config, logged.log),
      tokens: createTokenService(config),
      rateLimit: createRateLimiter(server.db, clock, config.rateLimitScale),
    } as Partial<Services> as Services,
  };
});

async function family(name = 'Sam') {
  const parent = await server.signUpVerifiedParent();
  const { childId, computerUserId } = await addChildWithComputer(server, parent.adminId, { name });
  return { parent, childId, computerUserId };
}

async function addUnlockRequests(
  computerUserId: string,
  targets: { url?: string; hostname?: string; ip?: string; bundleId?: string }[],
  comment: string | null = null,
) {
  const ids: string[] = [];
  for (const target of targets) {
    const id = newToken();
    const now = toDbTime(server.clock.now());
    await server.db
      .insertInto('unlock_requests')
      .values({
        id,
        computer_user_id: computerUserId,
        status: 'pending',
        app_bundle_id: target.bundleId ?? 'com.apple.Safari',
        url: target.url ?? null,
        hostname: target.hostname ?? null,
        ip_address: target.ip ?? null,
        request_comment: comment,
        response_comment: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    ids.push(id);
  }
  return ids;
}

const unlock = (
  f: { parent: { adminId: string }; childId: string },
  requestIds: string[],
  childName = 'Sam',
): ParentNotification => ({
  trigger: 'unlockRequestSubmitted',
  parentId: f.parent.adminId,
  childId: f.childId,
  childName,
  requestIds,
});

const errors = () => logged.entries.filter((entry) => entry.level === 'error');

describe('dispatch rule (§6.1)', () => {
  test('no rules at all: one fallback email to the account address, with the Settings paragraph', async () => {
    const f = await family();
    const [id] = await addUnlockRequests(
      f.computerUserId,
      [{ url: 'https://www.khanacademy.org/math' }],
      'for homework',
    );
    await notifyParent(ctx, unlock(f, [id!]));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe(f.parent.email);
    expect(mail.template).toBe('notify-unlock-request');
    expect(mail.subject).toMatch(/^New unlock request from Sam \[ref:[0-9a-f]{5}\]$/);
    expect(mail.text).toContain('https://www.khanacademy.org/math');
    expect(mail.text).toContain('for homework');
    expect(mail.links).toEqual([
      'https://www.khanacademy.org/math',
      `${DASHBOARD}/children/${f.childId}/unlock-requests/${id}`,
      `${DASHBOARD}/settings`,
    ]);
    expect(mail.links).toContain(`${DASHBOARD}/settings`);
    expect(mail.text).toContain("haven't set up any notifications");
    expect(sms.texts).toEqual([]);
    expect(slack.calls).toEqual([]);
  });

  test('no rules: a suspend-filter request gets the fallback too; a security event gets nothing', async () => {
    const f = await family();
    const requestId = newToken();
    await notifyParent(ctx, {
      trigger: 'suspendFilterRequestSubmitted',
      parentId: f.parent.adminId,
      childId: f.childId,
      childName: 'Sam',
      requestId,
      durationSeconds: 600,
      comment: 'finishing a video for school',
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^New suspend filter request from Sam \[ref:/);
    expect(mails[0]!.text).toContain('10 minutes');
    expect(mails[0]!.text).toContain('finishing a video for school');
    expect(mails[0]!.links).toContain(
      `${DASHBOARD}/children/${f.childId}/suspend-filter-requests/${requestId}`,
    );
    expect(mails[0]!.text).toContain('Settings');

    await notifyParent(ctx, {
      trigger: 'adminChildSecurityEvent',
      parentId: f.parent.adminId,
      childId: f.childId,
      childName: 'Sam',
      event: 'appQuit',
      detail: null,
    });
    expect(mails).toHaveLength(1);
    expect(errors()).toEqual([]);
  });

  test('rules of other triggers only: the account email still gets it, saying why (issue 32)', async () => {
    const f = await family();
    await addRule(
      server,
      f.parent.adminId,
      await accountEmailMethod(server, f.parent.adminId),
      'suspendFilterRequestSubmitted',
    );
    const ids = await addUnlockRequests(f.computerUserId, [{ hostname: 'roblox.com' }]);
    await notifyParent(ctx, unlock(f, ids));
    expect(mails.map((m) => [m.to, m.template])).toEqual([
      [f.parent.email, 'notify-unlock-request'],
    ]);
    expect(mails[0]!.text).toContain('none of your notification rules is for this kind of event');
    expect(mails[0]!.links).toContain(`${DASHBOARD}/settings`);
    expect(sms.texts).toEqual([]);
    expect(slack.calls).toEqual([]);
  });

  test('issue 32: one suspension rule does not silence a self-harm alert; a security event still needs its own rule', async () => {
    const f = await family();
    const phone = await addMethod(server, f.parent.adminId, {
      case: 'text',
      phoneNumber: '+14155552671',
    });
    await addRule(server, f.parent.adminId, phone, 'suspendFilterRequestSubmitted');
    await notifyParent(ctx, {
      trigger: 'activityAlert',
      parentId: f.parent.adminId,
      childId: f.childId,
      childName: 'Sam',
      count: 1,
      categories: ['selfHarm'],
    });
    expect(mails.map((m) => [m.to, m.template])).toEqual([
      [f.parent.email, 'notify-activity-alert'],
    ]);
    expect(mails[0]!.text).toContain('none of your notification rules is for this kind of event');
    expect(sms.texts).toEqual([]); // the suspension rule's method is not used for an alert
    await notifyParent(ctx, {
      trigger: 'adminChildSecurityEvent',
      parentId: f.parent.adminId,
      childId: f.childId,
      childName: 'Sam',
      event: 'appQuit',
      detail: null,
    });
    expect(mails).toHaveLength(1);
    expect(errors()).toEqual([]);
  });

  test('every matching rule sends once (email, text, Slack), the others not at all', async () => {
    const f = await family();
    const account = await accountEmailMethod(server, f.parent.adminId);
    const coParent = await addMethod(server, f.parent.adminId, {
      case: 'email',
      email: 'co-parent@example.com',
    });
    const phone = await addMethod(server, f.parent.adminId, {
      case: 'text',
      phoneNumber: '+14155552671',
    });
    const channel = await addMethod(
      server,
      f.parent.adminId,
      slackConfig({ token: 'xoxb-deliver-secret' }),
    );
    await addRule(server, f.parent.adminId, coParent, 'unlockRequestSubmitted');
    await addRule(server, f.parent.adminId, phone, 'unlockRequestSubmitted');
    await addRule(server, f.parent.adminId, channel, 'unlockRequestSubmitted');
    await addRule(server, f.parent.adminId, account, 'suspendFilterRequestSubmitted');
    const [id] = await addUnlockRequests(f.computerUserId, [
      { hostname: 'roblox.com', bundleId: 'com.roblox.client' },
    ]);

    await notifyParent(ctx, unlock(f, [id!]));
    const link = `${DASHBOARD}/children/${f.childId}/unlock-requests/${id}`;
    expect(mails.map((m) => [m.to, m.template])).toEqual([
      ['co-parent@example.com', 'notify-unlock-request'],
    ]);
    expect(mails[0]!.links).toEqual([link]); // no fallback paragraph
    const plain = `[Keyward] New unlock request from Sam. View the details and approve or deny at ${link}`;
    expect(sms.texts).toHaveLength(1);
    expect(sms.texts[0]).toMatchObject({ To: '+14155552671', From: SMS_ENV.SMS_FROM, Body: plain });
    expect(sms.texts[0]!.auth).toEqual({
      username: SMS_ENV.SMS_ACCOUNT_SID,
      password: SMS_ENV.SMS_AUTH_TOKEN,
    });
    expect(slack.messages()).toHaveLength(1);
    expect(slack.messages()[0]).toMatchObject({
      token: 'xoxb-deliver-secret',
      channel: 'C0FAMILY1',
      username: 'Keyward',
      text: plain,
    });
    expect(errors()).toEqual([]);
  });

  test('a batch of requests is one message per channel, linking to the list', async () => {
    const f = await family('Kim');
    const phone = await addMethod(server, f.parent.adminId, {
      case: 'text',
      phoneNumber: '+442071838750',
    });
    await addRule(server, f.parent.adminId, phone, 'unlockRequestSubmitted');
    await addRule(
      server,
      f.parent.adminId,
      await accountEmailMethod(server, f.parent.adminId),
      'unlockRequestSubmitted',
    );
    const ids = await addUnlockRequests(
      f.computerUserId,
      [
        { url: 'https://a.example.com/1' },
        { hostname: 'b.example.com' },
        { ip: '203.0.113.7' },
        { bundleId: 'com.valvesoftware.steam' },
        { hostname: 'e.example.com' },
        { hostname: 'f.example.com' },
        { hostname: 'g.example.com' },
      ],
      'please',
    );
    await notifyParent(ctx, unlock(f, ids, 'Kim'));
    const list = `${DASHBOARD}/children/${f.childId}/unlock-requests`;
    expect(sms.texts.map((t) => t.Body)).toEqual([
      `[Keyward] 7 new unlock requests from Kim. View the details and approve or deny at ${list}`,
    ]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^7 new unlock requests from Kim \[ref:/);
    expect(mails[0]!.links).toEqual(['https://a.example.com/1', list]);
    expect(mails[0]!.text).toContain(
      'b.example.com\n203.0.113.7\ncom.valvesoftware.steam\ne.example.com\n…and 2 more',
    );
    expect(mails[0]!.text).not.toContain('g.example.com');
    expect(mails[0]!.html).toContain('b.example.com<br>203.0.113.7<br>');
  });

  test('request ids of another child are not described (only counted)', async () => {
    const f = await family();
    const other = await family('Other');
    const [foreign] = await addUnlockRequests(other.computerUserId, [
      { hostname: 'secret.example.com' },
    ]);
    await notifyParent(ctx, unlock(f, [foreign!]));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).not.toContain('secret.example.com');
    expect(mails[0]!.text).toContain('Sam sent an unlock request.');
  });

  test('a security event goes through its rules, with the words, detail and link', async () => {
    const f = await family();
    const phone = await addMethod(server, f.parent.adminId, {
      case: 'text',
      phoneNumber: '+14155552671',
    });
    await addRule(server, f.parent.adminId, phone, 'adminChildSecurityEvent');
    await addRule(
      server,
      f.parent.adminId,
      await accountEmailMethod(server, f.parent.adminId),
      'adminChildSecurityEvent',
    );
    await notifyParent(ctx, {
      trigger: 'adminChildSecurityEvent',
      parentId: f.parent.adminId,
      childId: f.childId,
      childName: 'Sam',
      event: 'filterSuspendedRemotely',
      detail: 'for 10 minutes',
    });
    expect(sms.texts[0]!.Body).toContain(
      'Received security event: "Filter suspended remotely: for 10 minutes" for child Sam.',
    );
    expect(mails[0]!.subject).toMatch(/^Security event for child: Sam \[ref:/);
    expect(mails[0]!.links).toEqual([`${DASHBOARD}/security-events`]);
    // followed by the event's explanation
    expect(sms.texts[0]!.Body).toContain('The filter was suspended from the dashboard.');
    expect(mails[0]!.text).toContain('The filter was suspended from the dashboard.');
  });

  test('an iOS suspend-filter request links to the path it gives', async () => {
    const f = await family();
    await addRule(
      server,
      f.parent.adminId,
      await accountEmailMethod(server, f.parent.adminId),
      'suspendFilterRequestSubmitted',
    );
    const deviceId = newToken();
    await notifyParent(ctx, {
      trigger: 'suspendFilterRequestSubmitted',
      parentId: f.parent.adminId,
      childId: f.childId,
      childName: 'Sam',
      requestId: newToken(),
      durationSeconds: 90,
      comment: null,
      path: `/ios-devices/${deviceId}`,
    });
    expect(mails[0]!.links).toEqual([`${DASHBOARD}/ios-devices/${deviceId}`]);
    expect(mails[0]!.text).toContain('1 minute and 30 seconds');
  });
});

describe('failures (§6.1): logged at error level, the others still sent, never thrown', () => {
  async function everyChannel() {
    const f = await family();
    const phone = await addMethod(server, f.parent.adminId, {
      case: 'text',
      phoneNumber: '+14155552671',
    });
    const channel = await addMethod(server, f.parent.adminId, slackConfig());
    const account = await accountEmailMethod(server, f.parent.adminId);
    for (const method of [phone, channel, account]) {
      await addRule(server, f.parent.adminId, method, 'unlockRequestSubmitted');
    }
    return { f, ids: await addUnlockRequests(f.computerUserId, [{ hostname: 'roblox.com' }]) };
  }

  test('Slack answers ok:false: logged; the email and the text still go', async () => {
    const { f, ids } = await everyChannel();
    slack.fail('channel_not_found');
    await expect(notifyParent(ctx, unlock(f, ids))).resolves.toBeUndefined();
    expect(slack.messages()).toHaveLength(1);
    expect(sms.texts).toHaveLength(1);
    expect(mails).toHaveLength(1);
    expect(errors()).toHaveLength(1);
    expect(errors()[0]!.message).toContain('slack');
    expect(errors()[0]!.message).toContain('channel_not_found');
    expect(JSON.stringify(logged.entries)).not.toContain('xoxb-');
  });

  test('the SMS API answers 500: logged with status and body; the email and Slack still go', async () => {
    const { f, ids } = await everyChannel();
    sms.fail(500, { code: 20500, message: 'Internal Server Error' });
    await notifyParent(ctx, unlock(f, ids));
    expect(sms.texts).toHaveLength(1);
    expect(slack.messages()).toHaveLength(1);
    expect(mails).toHaveLength(1);
    expect(errors()).toHaveLength(1);
    expect(errors()[0]!.message).toContain('SMS API answered 500');
    expect(errors()[0]!.message).toContain('Internal Server Error');
  });

  test('SMTP fails: logged; texts and Slack still go', async () => {
    const { f, ids } = await everyChannel();
    failingMailer = true;
    await notifyParent(ctx, unlock(f, ids));
    expect(sms.texts).toHaveLength(1);
    expect(slack.messages()).toHaveLength(1);
    expect(errors().map((e) => e.message)).toEqual([
      expect.stringContaining('SMTP connection refused'),
    ]);
  });

  test('a failing fallback email is logged, not thrown', async () => {
    const f = await family();
    failingMailer = true;
    await expect(notifyParent(ctx, unlock(f, [newToken()]))).resolves.toBeUndefined();
    expect(errors()).toHaveLength(1);
    expect(errors()[0]!.message).toContain('fallback email');
  });

  test('a database failure is logged, not thrown', async () => {
    const f = await family();
    const broken: NotifyContext = {
      ...ctx,
      db: {
        selectFrom: () => {
          throw new Error('database is gone');
        },
      } as unknown as NotifyContext['db'],
    };
    await expect(notifyParent(broken, unlock(f, [newToken()]))).resolves.toBeUndefined();
    expect(errors().map((e) => e.data.err)).toEqual([
      expect.objectContaining({ message: 'database is gone' }),
    ]);
  });
});

describe('Slack text limit', () => {
  test('the text is cut at 2900 characters', async () => {
    const f = await family();
    await addRule(
      server,
      f.parent.adminId,
      await addMethod(server, f.parent.adminId, slackConfig()),
      'unlockRequestSubmitted',
    );
    await notifyParent(ctx, unlock(f, [newToken()], 'S'.repeat(4000)));
    const [message] = slack.messages();
    expect(message!.text).toHaveLength(2900);
    expect(message!.text.startsWith('[Keyward] New unlock request from SSS')).toBe(true);
  });
});

describe('the outbox stand-ins (no SMS or Slack API configured)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'keyward-outbox-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('texts and Slack messages are written to DATA_DIR/outbox and printed in the log with their links', async () => {
    const { log, entries } = recordingLogger();
    const config = { ...server.config, dataDir, sms: undefined, slackApiUrl: undefined };
    const link = 'https://dash.example.com/children/x/unlock-requests';
    await createSmsSender(config, log).send('+14155552671', `Hello, see ${link}`);
    await createSlackSender(config, log).post({
      token: 'xoxb-never-logged',
      channelId: 'C0FAMILY1',
      channelName: '#family',
      text: `Hi, see ${link}`,
    });

    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(2);
    expect(files.filter((file) => /-text-[0-9a-f]{6}\.txt$/.test(file))).toHaveLength(1);
    expect(files.filter((file) => /-slack-[0-9a-f]{6}\.txt$/.test(file))).toHaveLength(1);
    const contents = files.map((file) => readFileSync(path.join(dataDir, 'outbox', file), 'utf8'));
    expect(contents.join('\n')).not.toContain('xoxb-');
    expect(entries.map((e) => e.level)).toEqual(['info', 'info']);
    expect(entries[0]!.message).toContain(`text to +14155552671 written to`);
    expect(entries[0]!.message).toContain(link);
    expect(entries[0]!.data.links).toEqual([link]);
    expect(entries[1]!.message).toContain('Slack message to #family (C0FAMILY1)');
    expect(entries[1]!.data.links).toEqual([link]);
    expect(JSON.stringify(entries)).not.toContain('xoxb-');
  });
});

describe('configuration of the text and Slack channels', () => {
  const keys = { HMAC_KEY: 'a'.repeat(64), ENCRYPTION_KEY: 'b'.repeat(64) };

  test('SMS: unset is the outbox; SMS_API_URL needs the SID, token and sender', () => {
    expect(loadConfig(keys).sms).toBeUndefined();
    expect(loadConfig({ ...keys, SMS_API_URL: 'https://api.twilio.com/', ...SMS_ENV }).sms).toEqual(
      {
        apiUrl: 'https://api.twilio.com',
        accountSid: SMS_ENV.SMS_ACCOUNT_SID,
        authToken: SMS_ENV.SMS_AUTH_TOKEN,
        from: SMS_ENV.SMS_FROM,
      },
    );
    expect(() =>
      loadConfig({ ...keys, SMS_API_URL: 'https://api.twilio.com', ...SMS_ENV, SMS_FROM: '' }),
    ).toThrow(/SMS_FROM is required when SMS_API_URL is set/);
    expect(() => loadConfig({ ...keys, SMS_API_URL: 'twilio', ...SMS_ENV })).toThrow(/SMS_API_URL/);
  });

  test("Slack: Slack's public API in production, the outbox otherwise or when asked", () => {
    // issue 20: development (NODE_ENV unset) keeps Slack messages in the outbox, as emails and texts
    expect(loadConfig(keys).slackApiUrl).toBeUndefined();
    expect(loadConfig({ ...keys, NODE_ENV: 'development' }).slackApiUrl).toBeUndefined();
    expect(loadConfig({ ...keys, NODE_ENV: 'production' }).slackApiUrl).toBe(
      'https://slack.com/api/',
    );
    expect(loadConfig({ ...keys, NODE_ENV: 'test' }).slackApiUrl).toBeUndefined();
    expect(loadConfig({ ...keys, SLACK_API_URL: 'outbox' }).slackApiUrl).toBeUndefined();
    expect(loadConfig({ ...keys, SLACK_API_URL: 'http://127.0.0.1:9999/api' }).slackApiUrl).toBe(
      'http://127.0.0.1:9999/api/',
    );
    expect(() => loadConfig({ ...keys, SLACK_API_URL: 'slack' })).toThrow(/SLACK_API_URL/);
  });
});
