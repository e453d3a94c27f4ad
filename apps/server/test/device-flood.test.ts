import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MINUTE } from '../src/db/values.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { RATE_LIMITS } from '../src/pairql/rate-limit.ts';
import { childWithIpad, childWithMac } from './activity-helpers.ts';
import { type FakeSlackApi, startFakeSlackApi } from './fakes/slack.ts';
import { type FakeSmsApi, startFakeSmsApi } from './fakes/sms.ts';
import { addComputerUser, addMacToken, deviceCall } from './fixtures.ts';
import { type CallResult, createTestServer, type TestServer } from './harness.ts';
import {
  accountEmailMethod,
  addMethod,
  addRule,
  SMS_ENV,
  slackConfig,
} from './notifications-fixtures.ts';

// Issue 19, finding 1: a child's device cannot flood the parents. Parallel bursts from one Mac or
// iPhone, as a looping or hostile app sends them, against the real server (SQLite, or PostgreSQL with
// TEST_DATABASE_URL), with the budgets at their real size (RATE_LIMIT_SCALE 1): exact counts of
// what is stored, what is refused with the contract's 429, and which notifications go out.
// Before issue 19: 300 parallel calls of 20 requests were all stored (6,000 pending requests) and
// sent 300 emails, 300 texts and 300 Slack messages; 50 identical requests were 50 rows; 100
// suspension requests were 100 rows and 100 messages of each kind.

function statuses(results: CallResult[]) {
  const counts: Record<number, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

const burst = (n: number, call: (i: number) => Promise<CallResult>) =>
  Promise.all(Array.from({ length: n }, (_, i) => call(i)));

let server: TestServer;
let sms: FakeSmsApi;
let slack: FakeSlackApi;

beforeAll(async () => {
  sms = await startFakeSmsApi();
  slack = await startFakeSlackApi();
  server = await createTestServer({
    env: { RATE_LIMIT_SCALE: '1', SMS_API_URL: sms.url, SLACK_API_URL: slack.url, ...SMS_ENV },
  });
});
afterAll(async () => {
  await server?.close();
  await sms?.close();
  await slack?.close();
});

beforeEach(async () => {
  // every test starts in fresh budget windows (the longest device window is 10 minutes, the
  // notification ceilings an hour)
  server.clock.advance(2 * 60 * MINUTE);
  await notificationsDelivered();
  sms.texts.length = 0;
  slack.calls.length = 0;
});

const ios = (op: string, token: string, input?: unknown) =>
  server.call(op, input, { namespace: 'ios-app', token });

/** A parent whose unlock, suspension and security notifications go by email, text and Slack. */
async function familyWithEveryMethod() {
  const parent = await server.signUpVerifiedParent();
  const email = await accountEmailMethod(server, parent.adminId);
  const text = await addMethod(server, parent.adminId, {
    case: 'text',
    phoneNumber: '+14155552671',
  });
  const channel = await addMethod(server, parent.adminId, slackConfig());
  for (const method of [email, text, channel]) {
    for (const trigger of [
      'unlockRequestSubmitted',
      'suspendFilterRequestSubmitted',
      'adminChildSecurityEvent',
    ] as const) {
      await addRule(server, parent.adminId, method, trigger);
    }
  }
  return parent;
}

function sent(parentEmail: string, template: string) {
  return {
    emails: server.mails.filter((mail) => mail.to === parentEmail && mail.template === template),
    texts: sms.texts.slice(),
    slack: slack.messages().slice(),
  };
}

async function countRows(table: 'unlock_requests' | 'mac_suspend_filter_requests', id: string) {
  const row = await server.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('computer_user_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const blocked = (call: number, size: number) =>
  Array.from({ length: size }, (_, i) => ({
    bundleId: 'com.apple.Safari',
    url: `https://site-${call}-${i}.example.com/`,
    hostname: `site-${call}-${i}.example.com`,
  }));

describe('unlock requests (CreateUnlockRequests_v3)', () => {
  test('300 parallel calls of 20 requests from one Mac: 20 calls stored, 280 × 429, one message per method', async () => {
    const parent = await familyWithEveryMethod();
    const mac = await childWithMac(server, parent.adminId, 'Emma');
    const mailsBefore = server.mails.length;

    const results = await burst(300, (call) =>
      deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
        blockedRequests: blocked(call, 20),
        comment: 'homework',
      }),
    );
    expect(RATE_LIMITS.unlockRequestsPerDevice.limit).toBe(20);
    expect(statuses(results)).toEqual({ 200: 20, 429: 280 });
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({
      id: 'c4a1e8d2',
      type: 'badRequest',
      statusCode: 429,
      userMessage: 'Too many attempts. Please wait a few minutes and try again.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // each accepted call is answered with one id per request, as the Mac app expects
    for (const r of results.filter((r) => r.status === 200)) expect(r.body).toHaveLength(20);
    expect(await countRows('unlock_requests', mac.computerUserId)).toBe(400);

    await notificationsDelivered();
    const { emails, texts, slack: posts } = sent(parent.email, 'notify-unlock-request');
    expect(server.mails.length - mailsBefore).toBe(1);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toMatch(/^400 new unlock requests from Emma /);
    expect(emails[0]!.text).toContain('Emma asked to unlock 400 things:');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.Body).toMatch(/^\[Keyward\] 400 new unlock requests from Emma\./);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toBe(texts[0]!.Body);

    // the dashboard still lists every stored request
    const pending = await server.call('GetUserUnlockRequests', mac.childId, {
      token: parent.token,
    });
    expect(pending.status).toBe(200);
    expect(pending.body.filter((r: { status: string }) => r.status === 'pending')).toHaveLength(
      400,
    );
  });

  test('a second Mac of the child keeps working until the child’s budget (40 calls) is spent', async () => {
    const parent = await server.signUpVerifiedParent();
    const first = await childWithMac(server, parent.adminId);
    const second = await addComputerUser(server, parent.adminId, first.childId);
    const secondToken = await addMacToken(server, first.childId, second.computerUserId);
    const third = await addComputerUser(server, parent.adminId, first.childId);
    const thirdToken = await addMacToken(server, first.childId, third.computerUserId);
    const ask = (token: string, call: number) =>
      deviceCall(server, 'CreateUnlockRequests_v3', token, { blockedRequests: blocked(call, 1) });

    expect(statuses(await burst(30, (i) => ask(first.token, i)))).toEqual({ 200: 20, 429: 10 });
    expect(statuses(await burst(30, (i) => ask(secondToken, 100 + i)))).toEqual({
      200: 20,
      429: 10,
    });
    // the child's 40 are spent: a third Mac is refused at once
    expect((await ask(thirdToken, 200)).status).toBe(429);
    // ten minutes later the Macs may ask again
    server.clock.advance(10 * MINUTE);
    expect((await ask(thirdToken, 201)).status).toBe(200);
  });

  test('50 identical requests in parallel: one row, every answer its id, one message', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId, 'Noa');
    const mailsBefore = server.mails.length;
    const same = {
      blockedRequests: [
        {
          bundleId: 'com.apple.Safari',
          url: 'https://www.roblox.com/',
          hostname: 'www.roblox.com',
        },
      ],
    };
    const results = await burst(50, () =>
      deviceCall(server, 'CreateUnlockRequests_v3', mac.token, same),
    );
    // within the Mac's 20 calls every answer is the one stored request's id
    expect(statuses(results)).toEqual({ 200: 20, 429: 30 });
    const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body[0]));
    expect(ids.size).toBe(1);
    expect(await countRows('unlock_requests', mac.computerUserId)).toBe(1);
    await notificationsDelivered();

    // later, the same target again: the pending request's id; a new target: a new row
    server.clock.advance(10 * MINUTE);
    const again = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [
        same.blockedRequests[0],
        { bundleId: 'com.apple.Safari', hostname: 'scratch.mit.edu' },
        same.blockedRequests[0],
      ],
    });
    expect(again.status).toBe(200);
    expect(again.body[0]).toBe([...ids][0]);
    expect(again.body[2]).toBe([...ids][0]);
    expect(again.body[1]).not.toBe([...ids][0]);
    expect(await countRows('unlock_requests', mac.computerUserId)).toBe(2);

    await notificationsDelivered();
    // no rules: the fallback email, once per window with something new
    const emails = server.mails
      .slice(mailsBefore)
      .filter((mail) => mail.to === parent.email && mail.template === 'notify-unlock-request');
    expect(emails.map((mail) => mail.subject.replace(/ \[ref:.*$/, ''))).toEqual([
      'New unlock request from Noa',
      'New unlock request from Noa',
    ]);
    expect(emails[1]!.text).toContain('scratch.mit.edu');
  });
});

describe('suspension requests', () => {
  test('100 parallel CreateSuspendFilterRequest_v2 from one Mac: one row, 10 answers with its id, 90 × 429, one message per method', async () => {
    const parent = await familyWithEveryMethod();
    const mac = await childWithMac(server, parent.adminId, 'Kim');
    const results = await burst(100, () =>
      deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, {
        duration: 600,
        comment: 'art project',
      }),
    );
    expect(statuses(results)).toEqual({ 200: 10, 429: 90 });
    expect(new Set(results.filter((r) => r.status === 200).map((r) => r.body)).size).toBe(1);
    expect(await countRows('mac_suspend_filter_requests', mac.computerUserId)).toBe(1);

    await notificationsDelivered();
    const { emails, texts, slack: posts } = sent(parent.email, 'notify-suspend-filter');
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toMatch(/^New suspend filter request from Kim /);
    expect(texts).toHaveLength(1);
    expect(posts).toHaveLength(1);
  });

  test('100 parallel CreateSuspendFilterRequest from one iPad: one row and one message', async () => {
    const parent = await server.signUpVerifiedParent();
    const ipad = await childWithIpad(server, parent.adminId, { name: 'Ivy' });
    const mailsBefore = server.mails.length;
    const results = await burst(100, () =>
      ios('CreateSuspendFilterRequest', ipad.token, { duration: 300 }),
    );
    expect(statuses(results)).toEqual({ 200: 10, 429: 90 });
    expect(new Set(results.filter((r) => r.status === 200).map((r) => r.body)).size).toBe(1);
    const rows = await server.db
      .selectFrom('ios_suspend_filter_requests')
      .select('id')
      .where('device_id', '=', ipad.deviceId)
      .execute();
    expect(rows).toHaveLength(1);
    await notificationsDelivered();
    const emails = server.mails
      .slice(mailsBefore)
      .filter((mail) => mail.template === 'notify-suspend-filter');
    expect(emails).toHaveLength(1);
    expect(emails[0]!.links).toContain(
      `${server.config.dashboardUrls[0]}/ios-devices/${ipad.deviceId}`,
    );
  });

  test("requests of a child's Mac and iPad in one window are one message: the latest, with the count", async () => {
    const parent = await familyWithEveryMethod();
    const mac = await childWithMac(server, parent.adminId, 'Lea');
    const ipad = await childWithIpad(server, parent.adminId, { childId: mac.childId });
    await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, { duration: 600 });
    server.clock.advance(1000);
    await ios('CreateSuspendFilterRequest', ipad.token, { duration: 1200, comment: 'a film' });
    await notificationsDelivered();
    const { emails, texts } = sent(parent.email, 'notify-suspend-filter');
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toMatch(/^2 new suspend filter requests from Lea /);
    expect(emails[0]!.text).toContain(
      'Lea sent 2 suspension requests. The latest asks to suspend the filter for 20 minutes.',
    );
    expect(texts.map((t) => t.Body)).toEqual([
      `[Keyward] 2 new suspend filter requests from Lea, the latest for 20 minutes. Comment: "a film". View the details and approve or deny at ${server.config.dashboardUrls[0]}/ios-devices/${ipad.deviceId}`,
    ]);
  });
});

describe('security events (LogSecurityEvent)', () => {
  test('100 parallel events of an admin Mac: 30 stored, 70 × 429, one message per method', async () => {
    const parent = await familyWithEveryMethod();
    const mac = await childWithMac(server, parent.adminId, 'Max');
    await server.db
      .updateTable('computer_users')
      .set({ is_admin: 1 })
      .where('id', '=', mac.computerUserId)
      .execute();
    const results = await burst(100, () =>
      deviceCall(server, 'LogSecurityEvent', mac.token, {
        deviceId: mac.computerUserId,
        event: 'appQuit',
      }),
    );
    expect(statuses(results)).toEqual({ 200: 30, 429: 70 });
    const rows = await server.db
      .selectFrom('security_events')
      .select('id')
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(rows).toHaveLength(30);
    await notificationsDelivered();
    const { emails, texts, slack: posts } = sent(parent.email, 'notify-security-event');
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toMatch(/^30 security events for child: Max /);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.Body).toContain('Received 30 security events for child Max, the latest:');
    expect(posts).toHaveLength(1);
  });
});

describe('notifications: one per child and window, at most the ceiling per method and hour', () => {
  test('a request in each of 25 windows within an hour: 25 emails would be 20, texts 10, Slack 20', async () => {
    // the ceilings count per clock hour: start at the top of one
    const now = server.clock.now().getTime();
    server.clock.set(new Date(Math.ceil(now / (60 * MINUTE)) * 60 * MINUTE));
    const parent = await familyWithEveryMethod();
    const mac = await childWithMac(server, parent.adminId, 'Ada');
    for (let window = 0; window < 25; window++) {
      const result = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
        blockedRequests: blocked(window, 1),
      });
      expect(result.status).toBe(200);
      await notificationsDelivered();
      server.clock.advance(2 * MINUTE);
    }
    const { emails, texts, slack: posts } = sent(parent.email, 'notify-unlock-request');
    expect(emails).toHaveLength(RATE_LIMITS.notificationsPerEmailMethod.limit);
    expect(texts).toHaveLength(RATE_LIMITS.notificationsPerTextMethod.limit);
    expect(posts).toHaveLength(RATE_LIMITS.notificationsPerSlackMethod.limit);
    expect([emails.length, texts.length, posts.length]).toEqual([20, 10, 20]);

    // the next hour, messages go out again
    server.clock.advance(60 * MINUTE);
    await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: blocked(99, 1),
    });
    await notificationsDelivered();
    expect(sent(parent.email, 'notify-unlock-request').texts).toHaveLength(11);
  });

  test('two children in the same window: one message each', async () => {
    const parent = await server.signUpVerifiedParent();
    const emma = await childWithMac(server, parent.adminId, 'Emma');
    const sam = await childWithMac(server, parent.adminId, 'Sam');
    const mailsBefore = server.mails.length;
    await Promise.all([
      deviceCall(server, 'CreateUnlockRequests_v3', emma.token, { blockedRequests: blocked(1, 2) }),
      deviceCall(server, 'CreateUnlockRequests_v3', sam.token, { blockedRequests: blocked(2, 3) }),
      deviceCall(server, 'CreateUnlockRequests_v3', emma.token, { blockedRequests: blocked(3, 4) }),
    ]);
    await notificationsDelivered();
    const subjects = server.mails
      .slice(mailsBefore)
      .map((mail) => mail.subject.replace(/ \[ref:.*$/, ''))
      .sort();
    expect(subjects).toEqual(['3 new unlock requests from Sam', '6 new unlock requests from Emma']);
  });

  test('requests the parent decided before the window ended are left out; none left, no message', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId, 'Uma');
    const mailsBefore = server.mails.length;
    const asked = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: blocked(1, 1),
    });
    const decided = await server.call(
      'UpdateUnlockRequest',
      { id: asked.body[0], status: 'rejected' },
      { token: parent.token },
    );
    expect(decided.status).toBe(200);
    await notificationsDelivered();
    expect(server.mails.slice(mailsBefore)).toEqual([]);
  });
});

describe('activity volume per minute', () => {
  test('100 parallel screenshot uploads from one Mac: 30 signed, 70 × 429; the next minute again', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId);
    const results = await burst(100, () =>
      deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, { width: 800, height: 500 }),
    );
    expect(statuses(results)).toEqual({ 200: 30, 429: 70 });
    const rows = await server.db
      .selectFrom('screenshots')
      .select('id')
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(rows).toHaveLength(30);
    server.clock.advance(MINUTE);
    expect(
      (await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, { width: 8, height: 5 }))
        .status,
    ).toBe(200);
  });

  test('100 parallel ScreenshotUploadUrl from one iPad: 30 signed, 70 × 429', async () => {
    const parent = await server.signUpVerifiedParent();
    const ipad = await childWithIpad(server, parent.adminId);
    const createdAt = toSwiftReferenceSeconds(server.clock.now().toISOString());
    const results = await burst(100, () =>
      ios('ScreenshotUploadUrl', ipad.token, { width: 800, height: 500, createdAt }),
    );
    expect(statuses(results)).toEqual({ 200: 30, 429: 70 });
  });

  test('typed lines: 2,000 a minute per Mac; a 1,000-line batch over it is refused whole', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId);
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        appName: 'Notes',
        line: `line ${i}`,
        time: toSwiftReferenceSeconds(server.clock.now().toISOString()),
      }));
    const results = await burst(5, () =>
      deviceCall(server, 'CreateKeystrokeLines', mac.token, lines(1000)),
    );
    expect(statuses(results)).toEqual({ 200: 2, 429: 3 });
    const count = await server.db
      .selectFrom('keystroke_lines')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('computer_user_id', '=', mac.computerUserId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2000);
    server.clock.advance(MINUTE);
    expect((await deviceCall(server, 'CreateKeystrokeLines', mac.token, lines(10))).status).toBe(
      200,
    );
  });

  test('typed characters: 400,000 a minute per Mac (issue 31); a batch over it is refused whole', async () => {
    // before: only lines counted, and a line may hold 10,000 characters: 2,000 such lines a minute
    // took seconds of the request thread to match
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId);
    const long = (n: number, char = 'x') =>
      Array.from({ length: n }, () => ({
        appName: 'Notes',
        line: char.repeat(10_000),
        time: toSwiftReferenceSeconds(server.clock.now().toISOString()),
      }));
    const stored = async () =>
      Number(
        (
          await server.db
            .selectFrom('keystroke_lines')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('computer_user_id', '=', mac.computerUserId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect((await deviceCall(server, 'CreateKeystrokeLines', mac.token, long(41))).status).toBe(
      429,
    );
    expect(await stored()).toBe(0);
    server.clock.advance(MINUTE);
    // a body holds at most 512 KB: 400,000 characters in two batches
    expect((await deviceCall(server, 'CreateKeystrokeLines', mac.token, long(30))).status).toBe(
      200,
    );
    expect(
      (await deviceCall(server, 'CreateKeystrokeLines', mac.token, long(10, '\uFDFA'))).status,
    ).toBe(200);
    expect(await stored()).toBe(40);
    expect((await deviceCall(server, 'CreateKeystrokeLines', mac.token, long(1))).status).toBe(429);
    server.clock.advance(MINUTE);
    expect((await deviceCall(server, 'CreateKeystrokeLines', mac.token, long(1))).status).toBe(200);
  });

  test('a Mac that keeps calling past its budget is refused before its body is read (issue 31)', async () => {
    // before: each call past the budget was still parsed, validated and counted in the database;
    // one Mac sending 500 KB bodies as fast as it was answered raised another family's p50 ×4–7
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId);
    const other = await childWithMac(server, parent.adminId);
    const lines = (n: number) =>
      Array.from({ length: n }, () => ({
        appName: 'Notes',
        line: 'x'.repeat(10_000),
        time: toSwiftReferenceSeconds(server.clock.now().toISOString()),
      }));
    const refused = await deviceCall(server, 'CreateKeystrokeLines', mac.token, lines(41));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    const notJson = { namespace: 'macos-app' as const, token: mac.token, rawBody: '{not json' };
    // the same Mac and operation: 429 without reading the body (it is not even JSON)
    const again = await server.call('CreateKeystrokeLines', undefined, notJson);
    expect(again.status).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(retryAfter);
    expect(again.body).toMatchObject({ id: 'c4a1e8d2' });
    // its other operations, and another Mac, are answered as usual
    expect((await deviceCall(server, 'CreateKeystrokeLines', other.token, lines(1))).status).toBe(
      200,
    );
    expect(
      (await server.call('CreateKeystrokeLines', undefined, { ...notJson, token: other.token }))
        .status,
    ).toBe(400);
    expect(
      (await deviceCall(server, 'CheckIn_v2', mac.token, { appVersion: '2.4.0' })).status,
    ).toBe(200);
    // once its Retry-After has passed, its calls are read again
    server.clock.advance(retryAfter * 1000);
    expect((await server.call('CreateKeystrokeLines', undefined, notJson)).status).toBe(400);
  });
});

describe('identical requests in parallel, with budgets out of the way (scale 100)', () => {
  let roomy: TestServer;
  beforeAll(async () => {
    roomy = await createTestServer();
  });
  afterAll(async () => roomy?.close());

  test('50 identical unlock requests at once: all answered with one id, one row', async () => {
    const parent = await roomy.signUpVerifiedParent();
    const mac = await childWithMac(roomy, parent.adminId);
    const results = await burst(50, () =>
      deviceCall(roomy, 'CreateUnlockRequests_v3', mac.token, {
        blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'www.roblox.com' }],
      }),
    );
    expect(statuses(results)).toEqual({ 200: 50 });
    expect(new Set(results.map((r) => r.body[0])).size).toBe(1);
    const rows = await roomy.db
      .selectFrom('unlock_requests')
      .select('id')
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  test('50 suspension requests at once from a Mac and from an iPad: one row each', async () => {
    const parent = await roomy.signUpVerifiedParent();
    const mac = await childWithMac(roomy, parent.adminId);
    const ipad = await childWithIpad(roomy, parent.adminId, { childId: mac.childId });
    const results = await Promise.all([
      ...Array.from({ length: 50 }, () =>
        deviceCall(roomy, 'CreateSuspendFilterRequest_v2', mac.token, { duration: 300 }),
      ),
      ...Array.from({ length: 50 }, () =>
        roomy.call(
          'CreateSuspendFilterRequest',
          { duration: 300 },
          { namespace: 'ios-app', token: ipad.token },
        ),
      ),
    ]);
    expect(statuses(results)).toEqual({ 200: 100 });
    expect(new Set(results.map((r) => r.body)).size).toBe(2);
    const macRows = await roomy.db
      .selectFrom('mac_suspend_filter_requests')
      .select('id')
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    const ipadRows = await roomy.db
      .selectFrom('ios_suspend_filter_requests')
      .select('id')
      .where('device_id', '=', ipad.deviceId)
      .execute();
    expect([macRows.length, ipadRows.length]).toEqual([1, 1]);
  });
});
