import { BrowserChannelMessage, BrowserCheckInOutput } from '@keyward/contract/browser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { MINUTE } from '../src/db/values.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { addChild, addConnectionCode, addKey, addKeychain, assign, website } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 34: screen time on the server: SaveScreenTime, PauseInternet, ResumeInternet,
// DecideMoreTimeRequest and GetScreenTime on the dashboard; the minutes a browser reports with its
// check-in, today's allowance it gets back, and its requests for more time. Both databases.

let server: TestServer;
let baseUrl: string;
// a Monday, 10:00 UTC; every test moves the clock forward only
const START = new Date('2026-12-07T10:00:00Z');
beforeAll(async () => {
  server = await createTestServer();
  server.clock.set(START);
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = address.replace(/^http/, 'ws');
});
afterAll(async () => server.close());

const browserCall = (op: string, token: string, input?: unknown) =>
  server.call(op, input, { namespace: 'browser-filter', token });

const CONNECT = {
  browser: 'Chrome',
  browserVersion: '142.0.7444.59',
  platform: 'windows',
  extensionVersion: '1.0.0',
};

type Parent = Awaited<ReturnType<TestServer['signUpVerifiedParent']>>;

async function family() {
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId, { name: 'Ada' });
  return { parent, childId };
}

async function connectBrowser(childId: string) {
  const code = await addConnectionCode(server, childId);
  const result = await server.call(
    'ConnectBrowser',
    { code, ...CONNECT },
    { namespace: 'browser-filter' },
  );
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as { token: string; deviceId: string };
}

async function checkIn(token: string, usedMinutes?: { minute: string; site: string }[]) {
  const result = await browserCall('CheckIn', token, {
    extensionVersion: '1.0.0',
    browserVersion: '142.0.7444.59',
    incognitoAllowed: true,
    ...(usedMinutes ? { usedMinutes } : {}),
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return BrowserCheckInOutput.parse(result.body);
}

/** The `count` whole minutes starting `fromMinutesAgo` minutes before now, on `site`. */
function minutes(fromMinutesAgo: number, count: number, site = 'www.youtube.com') {
  const now = server.clock.now().getTime();
  const first = Math.floor(now / MINUTE) * MINUTE - fromMinutesAgo * MINUTE;
  return Array.from({ length: count }, (_, i) => ({
    minute: new Date(first + i * MINUTE).toISOString().replace('.000Z', 'Z'),
    site,
  }));
}

const TWO_HOURS_ON_SCHOOL_DAYS = {
  monday: 120,
  tuesday: 120,
  wednesday: 120,
  thursday: 120,
  friday: 120,
  saturday: 180,
  sunday: 180,
};

async function saveScreenTime(
  parent: Parent,
  childId: string,
  allowance: Record<string, number | null>,
  exemptKeychainIds: string[] = [],
) {
  return server.call(
    'SaveScreenTime',
    { childId, allowance, exemptKeychainIds },
    { token: parent.token },
  );
}

describe('SaveScreenTime', () => {
  test('the allowance is part of GetUser, and the browser gets today’s', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    expect((await checkIn(token)).screenTime).toBeUndefined();
    const user = await server.call('GetUser', childId, { token: parent.token });
    expect(user.body.screenTime).toEqual({
      allowance: {
        monday: null,
        tuesday: null,
        wednesday: null,
        thursday: null,
        friday: null,
        saturday: null,
        sunday: null,
      },
      exemptKeychainIds: [],
      timeZone: 'UTC',
    });

    const saved = await saveScreenTime(parent, childId, {
      ...TWO_HOURS_ON_SCHOOL_DAYS,
      monday: 45,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const after = await server.call('GetUser', childId, { token: parent.token });
    expect(after.body.screenTime.allowance).toEqual({ ...TWO_HOURS_ON_SCHOOL_DAYS, monday: 45 });
    expect((await checkIn(token)).screenTime).toEqual({
      allowedMinutes: 45,
      usedMinutes: 0,
      remainingMinutes: 45,
      resetsAt: '2026-12-08T00:00:00Z',
      exemptKeychainIds: [],
    });
  });

  test('bad minutes are refused with a message a parent understands, and nothing is written', async () => {
    const { parent, childId } = await family();
    for (const [allowance, message] of [
      [
        { ...TWO_HOURS_ON_SCHOOL_DAYS, tuesday: 1500 },
        'The time allowed on Tuesday can be at most 24 hours.',
      ],
      [
        { ...TWO_HOURS_ON_SCHOOL_DAYS, friday: -1 },
        'The time allowed on Friday must be a whole number of minutes.',
      ],
      [
        { ...TWO_HOURS_ON_SCHOOL_DAYS, sunday: 2.5 },
        'The time allowed on Sunday must be a whole number of minutes.',
      ],
    ] as const) {
      const refused = await saveScreenTime(parent, childId, allowance);
      expect(refused.status).toBe(400);
      expect(refused.body.userMessage).toBe(message);
    }
    const user = await server.call('GetUser', childId, { token: parent.token });
    expect(user.body.screenTime.allowance.monday).toBeNull();
    // a missing day is the contract's 400
    const { sunday: _, ...sixDays } = TWO_HOURS_ON_SCHOOL_DAYS;
    expect((await saveScreenTime(parent, childId, sixDays)).status).toBe(400);
  });

  test('exempt keychains: the child’s own only; another family’s is refused like a missing one', async () => {
    const { parent, childId } = await family();
    const school = await addKeychain(server, parent.adminId, { name: 'School' });
    const notAssigned = await addKeychain(server, parent.adminId, { name: 'Games' });
    await assign(server, childId, school);
    const other = await family();
    const foreign = await addKeychain(server, other.parent.adminId, { name: 'Theirs' });

    const theirs = await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS, [foreign]);
    expect(theirs.status).toBe(404);
    const unassigned = await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS, [
      notAssigned,
    ]);
    expect(unassigned.status).toBe(400);
    expect(unassigned.body.userMessage).toMatch(/Only keychains this child has/);
    const ok = await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS, [school]);
    expect(ok.status).toBe(200);
    const user = await server.call('GetUser', childId, { token: parent.token });
    expect(user.body.screenTime.exemptKeychainIds).toEqual([school]);
  });

  test('the change is in the audit log in words', async () => {
    const { parent, childId } = await family();
    await saveScreenTime(parent, childId, { ...TWO_HOURS_ON_SCHOOL_DAYS, sunday: null });
    const log = await server.call('GetAuditLog', { page: 0 }, { token: parent.token });
    expect(JSON.stringify(log.body)).toContain('Monday 2 hours');
    expect(JSON.stringify(log.body)).toContain('Sunday no limit');
  });
});

test('the dashboard’s time zone becomes the family’s when it has none, never over one it has', async () => {
  const { parent, childId } = await family();
  const save = (timeZone: string) =>
    server.call(
      'SaveScreenTime',
      { childId, allowance: TWO_HOURS_ON_SCHOOL_DAYS, exemptKeychainIds: [], timeZone },
      { token: parent.token },
    );
  expect((await save('Not/AZone')).status).toBe(200);
  const zoneOf = async () =>
    (await server.call('GetUser', childId, { token: parent.token })).body.screenTime.timeZone;
  expect(await zoneOf()).toBe('UTC');
  expect((await save('Europe/Paris')).status).toBe(200);
  expect(await zoneOf()).toBe('Europe/Paris');
  await save('Asia/Tokyo');
  expect(await zoneOf()).toBe('Europe/Paris');
});

describe('minutes reported by browsers', () => {
  test('counted once per minute over the child’s browsers; time is up at the allowance', async () => {
    const { parent, childId } = await family();
    const first = await connectBrowser(childId);
    const second = await connectBrowser(childId);
    await saveScreenTime(parent, childId, { ...TWO_HOURS_ON_SCHOOL_DAYS, monday: 30 });
    server.clock.advance(40 * MINUTE);

    // 20 minutes on one browser, and 15 of them again on the other at the same time, plus 5 more
    expect((await checkIn(first.token, minutes(25, 20))).screenTime?.usedMinutes).toBe(20);
    const both = await checkIn(second.token, [...minutes(20, 15), ...minutes(5, 5, 'x.example')]);
    expect(both.screenTime).toMatchObject({ usedMinutes: 25, remainingMinutes: 5 });
    // the same report again counts nothing more
    expect((await checkIn(second.token, minutes(20, 15))).screenTime?.usedMinutes).toBe(25);

    server.clock.advance(5 * MINUTE);
    const up = await checkIn(first.token, minutes(5, 5));
    expect(up.screenTime).toMatchObject({ usedMinutes: 30, remainingMinutes: 0 });
  });

  test('a browser cannot report minutes that have not passed, nor before it was connected', async () => {
    const { parent, childId } = await family();
    await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS);
    server.clock.advance(MINUTE);
    const { token } = await connectBrowser(childId);
    server.clock.advance(10 * MINUTE);
    // the next hour, and the hour before it was connected: none of it counts
    const future = minutes(-1, 60);
    const before = minutes(70, 60);
    const result = await checkIn(token, [...future, ...before, ...minutes(3, 3)]);
    expect(result.screenTime?.usedMinutes).toBe(3);
    // not whole minutes: dropped
    const odd = await checkIn(token, [{ minute: '2026-12-07T10:05:30Z', site: 'a.example' }]);
    expect(odd.screenTime?.usedMinutes).toBe(3);
  });

  test('more than a day of minutes in one check-in is a 400', async () => {
    const { childId } = await family();
    const { token } = await connectBrowser(childId);
    const tooMany = await browserCall('CheckIn', token, {
      extensionVersion: '1.0.0',
      browserVersion: '142.0.7444.59',
      incognitoAllowed: true,
      usedMinutes: minutes(0, 24 * 60 + 1),
    });
    expect(tooMany.status).toBe(400);
  });

  test('the day resets at midnight in the family’s time zone', async () => {
    const { parent, childId } = await family();
    await server.call(
      'SaveWeeklyReport',
      { isEnabled: true, timeZone: 'America/New_York' },
      { token: parent.token },
    );
    const { token } = await connectBrowser(childId);
    await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS);
    server.clock.advance(10 * MINUTE);
    const today = await checkIn(token, minutes(5, 5));
    const now = server.clock.now();
    // New York's day ends at 05:00 UTC the next morning (winter)
    const resetsAt = new Date(today.screenTime?.resetsAt ?? '');
    expect(resetsAt.getUTCHours()).toBe(5);
    expect(resetsAt.getTime() - now.getTime()).toBeLessThanOrEqual(24 * 60 * MINUTE);
    const user = await server.call('GetUser', childId, { token: parent.token });
    expect(user.body.screenTime.timeZone).toBe('America/New_York');
  });
});

describe('GetScreenTime', () => {
  test('today and each day of the week against the allowance, and the top sites', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS);
    server.clock.advance(30 * MINUTE);
    await checkIn(token, [...minutes(20, 12), ...minutes(8, 6, 'khanacademy.org')]);
    const usage = await server.call('GetScreenTime', { childId }, { token: parent.token });
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.week).toHaveLength(7);
    const today = usage.body.today;
    expect(today).toMatchObject({ usedMinutes: 18, allowanceMinutes: 120, remainingMinutes: 102 });
    expect(usage.body.week.at(-1)).toMatchObject({ date: today.date, usedMinutes: 18 });
    expect(
      usage.body.week.slice(0, 6).every((day: { usedMinutes: number }) => day.usedMinutes === 0),
    ).toBe(true);
    expect(usage.body.topSites).toEqual([
      { site: 'www.youtube.com', minutes: 12 },
      { site: 'khanacademy.org', minutes: 6 },
    ]);
  });
});

describe('more time', () => {
  test('the child asks, the request is in the inbox, the parent grants, the browser gets it', async () => {
    const { parent, childId } = await family();
    const { token, deviceId } = await connectBrowser(childId);
    await saveScreenTime(parent, childId, { ...TWO_HOURS_ON_SCHOOL_DAYS, monday: 10 });
    server.clock.advance(15 * MINUTE);
    expect((await checkIn(token, minutes(12, 10))).screenTime?.remainingMinutes).toBe(0);

    const asked = await browserCall('CreateMoreTimeRequest', token, {
      minutes: 30,
      comment: 'homework video',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body).toEqual({ id: asked.body.id, status: 'pending', requestedMinutes: 30 });
    // asking again while it is pending answers the same request
    const again = await browserCall('CreateMoreTimeRequest', token, { minutes: 15 });
    expect(again.body.id).toBe(asked.body.id);
    // the parents hear of it like of a suspension request: one email for the two asks
    await notificationsDelivered();
    const mails = server.mails.filter((mail) => /asks for more screen time/.test(mail.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("Ada used today's screen time and asks for 30 minutes more.");
    expect(mails[0]?.text).toContain('Ada\'s comment: "homework video"');
    expect(mails[0]?.text).toMatch(/\/inbox/);

    const inbox = await server.call('GetInbox', undefined, { token: parent.token });
    expect(inbox.body.moreTime).toEqual([
      {
        id: asked.body.id,
        childId,
        childName: 'Ada',
        device: { kind: 'browser', id: deviceId, name: expect.any(String) },
        createdAt: expect.any(String),
        requestComment: 'homework video',
        requestedMinutes: 30,
      },
    ]);

    // another family cannot decide it
    const other = await family();
    const foreign = await server.call(
      'DecideMoreTimeRequest',
      { id: asked.body.id, decision: { case: 'accepted', minutes: 60 } },
      { token: other.parent.token },
    );
    expect(foreign.status).toBe(404);

    const granted = await server.call(
      'DecideMoreTimeRequest',
      { id: asked.body.id, decision: { case: 'accepted', minutes: 15 } },
      { token: parent.token },
    );
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect((await checkIn(token)).screenTime).toMatchObject({
      allowedMinutes: 25,
      usedMinutes: 10,
      remainingMinutes: 15,
    });
    const read = await browserCall('GetMoreTimeRequest', token, { id: asked.body.id });
    expect(read.body).toEqual({
      id: asked.body.id,
      status: 'accepted',
      requestedMinutes: 30,
      grantedMinutes: 15,
    });
    // decided once: a second decision is refused and the inbox is empty
    const twice = await server.call(
      'DecideMoreTimeRequest',
      { id: asked.body.id, decision: { case: 'rejected' } },
      { token: parent.token },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.userMessage).toBe('This request for more time was already granted.');
    const after = await server.call('GetInbox', undefined, { token: parent.token });
    expect(after.body.moreTime).toBeUndefined();
  });

  test('parallel decisions: exactly one is stored', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    const asked = await browserCall('CreateMoreTimeRequest', token, { minutes: 60 });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        server.call(
          'DecideMoreTimeRequest',
          { id: asked.body.id, decision: { case: 'accepted', minutes: 60 } },
          { token: parent.token },
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    const row = await server.db
      .selectFrom('more_time_requests')
      .select(['status', 'granted_minutes'])
      .where('id', '=', asked.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'accepted', granted_minutes: 60 });
  });

  test('bad asks and grants are 400s; another browser cannot read the request', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    expect((await browserCall('CreateMoreTimeRequest', token, { minutes: 20 })).status).toBe(400);
    const asked = await browserCall('CreateMoreTimeRequest', token, { minutes: 15 });
    for (const minutes of [0, 1.5, 24 * 60 + 1]) {
      const bad = await server.call(
        'DecideMoreTimeRequest',
        { id: asked.body.id, decision: { case: 'accepted', minutes } },
        { token: parent.token },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.userMessage).toBe('Give between 1 minute and 24 hours of more time.');
    }
    const stranger = await connectBrowser((await family()).childId);
    const read = await browserCall('GetMoreTimeRequest', stranger.token, { id: asked.body.id });
    expect(read.status).toBe(404);
  });

  test('a request of an earlier day can no longer be decided', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    const asked = await browserCall('CreateMoreTimeRequest', token, { minutes: 15 });
    server.clock.advance(24 * 60 * MINUTE);
    const late = await server.call(
      'DecideMoreTimeRequest',
      { id: asked.body.id, decision: { case: 'accepted', minutes: 15 } },
      { token: parent.token },
    );
    expect(late.status).toBe(400);
    expect(late.body.userMessage).toMatch(/earlier day/);
    const inbox = await server.call('GetInbox', undefined, { token: parent.token });
    expect(inbox.body.moreTime).toBeUndefined();
  });
});

describe('PauseInternet and ResumeInternet', () => {
  test('a pause reaches the browser’s check-in and GetUser, and ends on time', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    const paused = await server.call(
      'PauseInternet',
      { childId, minutes: 15 },
      { token: parent.token },
    );
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const until = new Date(server.clock.now().getTime() + 15 * MINUTE)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    expect((await checkIn(token)).pause).toEqual({ until });
    const user = await server.call('GetUser', childId, { token: parent.token });
    expect(user.body.screenTime.pause).toEqual({ until });
    server.clock.advance(15 * MINUTE);
    expect((await checkIn(token)).pause).toBeUndefined();
    // the cached GetUser does not outlive the pause
    const later = await server.call('GetUser', childId, { token: parent.token });
    expect(later.body.screenTime.pause).toBeUndefined();
  });

  test('until I resume: paused until the parent resumes', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    await server.call('PauseInternet', { childId, minutes: null }, { token: parent.token });
    server.clock.advance(3 * 24 * 60 * MINUTE);
    expect((await checkIn(token)).pause).toEqual({});
    const resumed = await server.call('ResumeInternet', { childId }, { token: parent.token });
    expect(resumed.status).toBe(200);
    expect((await checkIn(token)).pause).toBeUndefined();
  });

  test('odd lengths are refused in words', async () => {
    const { parent, childId } = await family();
    for (const minutes of [0, -5, 2.5, 7 * 24 * 60 + 1]) {
      const bad = await server.call('PauseInternet', { childId, minutes }, { token: parent.token });
      expect(bad.status).toBe(400);
      expect(bad.body.userMessage).toBe(
        'A pause lasts between 1 minute and 7 days, or until you resume.',
      );
    }
  });

  test('the browser hears of a pause and of a grant on its channel at once', async () => {
    const { parent, childId } = await family();
    const { token } = await connectBrowser(childId);
    const socket = new WebSocket(`${baseUrl}/browser-filter/channel`);
    const frames: { type: string }[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    socket.send(JSON.stringify({ type: 'hello', token }));
    const until = async (check: () => boolean) => {
      const started = Date.now();
      while (!check() && Date.now() - started < 2000) await new Promise((r) => setTimeout(r, 10));
      expect(check()).toBe(true);
    };
    await until(() => frames.some((f) => f.type === 'welcome'));
    const rulesChanged = () => frames.filter((f) => f.type === 'rulesChanged').length;

    await server.call('PauseInternet', { childId, minutes: 60 }, { token: parent.token });
    await until(() => rulesChanged() === 1);
    await server.call('ResumeInternet', { childId }, { token: parent.token });
    await until(() => rulesChanged() === 2);
    const asked = await browserCall('CreateMoreTimeRequest', token, { minutes: 15 });
    await server.call(
      'DecideMoreTimeRequest',
      { id: asked.body.id, decision: { case: 'accepted', minutes: 15 } },
      { token: parent.token },
    );
    await until(() => rulesChanged() === 3);
    for (const frame of frames) expect(BrowserChannelMessage.safeParse(frame).success).toBe(true);
    socket.close();
  });
});

describe('another family', () => {
  test('every screen-time operation refuses another family’s child', async () => {
    const { childId } = await family();
    const other = await family();
    const as = { token: other.parent.token };
    const calls: [string, unknown][] = [
      ['SaveScreenTime', { childId, allowance: TWO_HOURS_ON_SCHOOL_DAYS, exemptKeychainIds: [] }],
      ['PauseInternet', { childId, minutes: 15 }],
      ['ResumeInternet', { childId }],
      ['GetScreenTime', { childId }],
      ['DecideMoreTimeRequest', { id: childId, decision: { case: 'rejected' } }],
    ];
    for (const [op, input] of calls) {
      const result = await server.call(op, input, as);
      expect(result.status, op).toBe(404);
    }
  });
});

test('the exempt keychains reach the browser with today’s allowance', async () => {
  const { parent, childId } = await family();
  const school = await addKeychain(server, parent.adminId, { name: 'School' });
  await addKey(server, school, website('khanacademy.org'));
  await assign(server, childId, school);
  const { token } = await connectBrowser(childId);
  await saveScreenTime(parent, childId, TWO_HOURS_ON_SCHOOL_DAYS, [school]);
  expect((await checkIn(token)).screenTime?.exemptKeychainIds).toEqual([school]);
});
