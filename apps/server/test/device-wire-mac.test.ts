import {
  MAC_APP_VERSION,
  MAC_WEBSOCKET_PATH,
  macPushFromApp,
  macPushFromServer,
} from '@keyward/contract/swift-apps';
import {
  decodeSwift,
  encodeSwift,
  type Infer,
  toSwiftReferenceSeconds,
} from '@keyward/contract/swift-codable';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { newToken } from '../src/services/tokens.ts';
import { macAppClient, type MacInput, swiftJsonText } from './swift-client.ts';
import { createChild, newChildInput, serverWithParents } from './fixtures.ts';

// The Mac app's wire, end to end, exactly as the reference's Swift app (gertrude-app/swift,
// macapp 2.7.5) speaks it: every operation is sent as its `URLSession` request would be (a
// default-`JSONEncoder` body: upper-case UUIDs, dates as seconds since 2001-01-01, nil optionals
// omitted, `/` escaped; `Content-Type: application/x-www-form-urlencoded`, which Darwin adds to
// a POST with a body when none is set; `X-UserToken` upper case; no body for an operation without
// input), and every answer must decode with the app's `JSONDecoder` (`.iso8601` dates in whole
// seconds, synthesized enums), modelled by @keyward/contract/swift-codable. The push channel is
// `GET /app-websocket` with `Authorization: Bearer <token>`. The parent's side uses the
// dashboard operations.

const { server, alice } = await serverWithParents();

// ---------------------------------------------------------------------------
// The Swift client

const { send: macSend, call: mac } = macAppClient(server);

// ---------------------------------------------------------------------------
// The parent (dashboard operations)

// biome-ignore lint/suspicious/noExplicitAny: dashboard answers are read loosely here
async function parent(op: string, input?: unknown): Promise<any> {
  const result = await server.call(op, input, { token: alice.token });
  expect(result.status, `${op}: ${JSON.stringify(result.body)}`).toBe(200);
  return result.body;
}

const upper = (id: string) => id.toUpperCase();
/** The dashboard's own ids are lower case. */
const lower = (id: string) => id.toLowerCase();
const serial = () => `C02${newToken().slice(0, 9).toUpperCase()}`;
const nowSeconds = () => server.clock.now().getTime() / 1000;

/** A Swift `Date()`: sub-millisecond digits, as a Mac's clock has them. */
function macDate(offsetMs = 0): Date {
  return new Date(server.clock.now().getTime() + offsetMs + 0.123);
}

interface Child {
  childId: string;
  name: string;
}

async function newChild(settings: Record<string, unknown> = {}): Promise<Child> {
  const name = (settings.name as string | undefined) ?? 'Lily';
  const childId = await createChild(server, alice, { name, ...settings });
  return { childId, name };
}

async function connectMac(settings: Record<string, unknown> = {}) {
  const child = await newChild(settings);
  const { code } = await parent('CreatePendingAppConnection', { userId: child.childId });
  const userData = await mac('ConnectUser', {
    verificationCode: code,
    appVersion: MAC_APP_VERSION,
    modelIdentifier: 'Mac14,2',
    username: 'lily',
    fullUsername: 'Lily Smith',
    numericId: 502,
    serialNumber: serial(),
    osVersion: '15.1.1',
    isAdmin: false,
  });
  return { ...child, userData, token: userData.token };
}

function checkInInput(extra: Partial<MacInput<'CheckIn_v2'>> = {}): MacInput<'CheckIn_v2'> {
  return {
    appVersion: MAC_APP_VERSION,
    filterVersion: MAC_APP_VERSION,
    userIsAdmin: false,
    osVersion: '15.1.1',
    ...extra,
  };
}

// ---------------------------------------------------------------------------

describe('ConnectUser', () => {
  test('answers the UserData the app stores: token, deviceId, the child, a whole-second connectedAt', async () => {
    const before = server.clock.now().getTime();
    const { childId, userData } = await connectMac({
      name: 'Lily',
      screenshotsEnabled: true,
      screenshotsFrequency: 120,
      screenshotsResolution: 1200,
    });
    expect(userData).toMatchObject({
      id: upper(childId),
      name: 'Lily',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotFrequency: 120,
      screenshotSize: 1200,
    });
    expect(userData.token).toMatch(/^[0-9A-F-]{36}$/);
    expect(userData.deviceId).toMatch(/^[0-9A-F-]{36}$/);
    expect(userData.deviceId).not.toBe(userData.token);
    expect(userData.connectedAt.getTime() % 1000).toBe(0);
    expect(Math.abs(userData.connectedAt.getTime() - before)).toBeLessThan(2000);
  });

  test('a wrong code is refused, not 200', async () => {
    const answer = await macSend('ConnectUser', {
      verificationCode: 1,
      appVersion: MAC_APP_VERSION,
      modelIdentifier: 'Mac14,2',
      username: 'lily',
      fullUsername: 'Lily Smith',
      numericId: 502,
      serialNumber: serial(),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});

describe('CheckIn_v2', () => {
  test('the whole answer decodes: userData, app manifest, browsers, release, trusted time', async () => {
    const { childId, userData, token } = await connectMac({ name: 'Noa' });
    const output = await mac(
      'CheckIn_v2',
      checkInInput({
        namedApps: [
          { pid: 812, bundleId: 'com.apple.Safari', localizedName: 'Safari', launchable: true },
          { pid: 2231, bundleId: 'com.example.Unknown', bundleName: 'Unknown' },
        ],
      }),
      token,
    );

    expect(output.adminAccountStatus).toBe('active');
    expect(output.updateReleaseChannel).toBe('stable');
    expect(output.userData).toMatchObject({
      id: upper(childId),
      token: userData.token,
      deviceId: userData.deviceId,
      name: 'Noa',
    });
    expect(output.userData.connectedAt).toEqual(userData.connectedAt);

    // AppIdManifest: slug → bundle ids, slug → display name, category → slugs
    const { apps, displayNames, categories } = output.appManifest;
    expect(Object.keys(apps).length).toBeGreaterThan(0);
    expect(apps.safari).toContain('com.apple.Safari');
    for (const bundleIds of Object.values(apps)) expect(bundleIds.length).toBeGreaterThan(0);
    expect(Object.keys(displayNames).length).toBeGreaterThan(0);
    expect(displayNames.safari).toBe('Safari');
    expect(Object.keys(categories).length).toBeGreaterThan(0);
    expect(Object.values(categories).flat()).toContain('safari');

    expect(output.browsers).toContainEqual({ case: 'bundleId', _0: 'com.apple.Safari' });
    expect(output.latestRelease.semver).toMatch(/^\d+\.\d+\.\d+$/);
    expect(output.trustedTime).toBeGreaterThan(nowSeconds() - 5);
    expect(output.trustedTime).toBeLessThan(nowSeconds() + 5);
    expect(output.keychains).toEqual([]);
    expect(output.resolvedFilterSuspension).toBeUndefined();
  });

  test('with no newer release, latestRelease is the app’s own version', async () => {
    const { token } = await connectMac();
    const output = await mac('CheckIn_v2', checkInInput(), token);
    expect(output.latestRelease.semver).toBe(MAC_APP_VERSION);
  });

  test('carries the keychains the parent assigns, with their keys; userData carries downtime and blocked apps', async () => {
    const { childId, token } = await connectMac({ name: 'Kim' });
    const keychainId = newToken();
    await parent('SaveKeychain', {
      isNew: true,
      id: keychainId,
      name: 'Homework',
      description: 'Sites for school',
    });
    const websiteKey = newToken();
    const appKey = newToken();
    await parent('SaveKey', {
      isNew: true,
      id: websiteKey,
      keychainId,
      key: { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    });
    await parent('SaveKey', {
      isNew: true,
      id: appKey,
      keychainId,
      key: {
        type: 'domain',
        domain: 'zoom.us',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
      },
    });
    await parent('ToggleChildKeychain', { keychainId, childId });
    const blockedAppId = newToken();
    await parent(
      'SaveUser',
      newChildInput({
        id: childId,
        isNew: false,
        name: 'Kim',
        downtime: { start: { hour: 21, minute: 30 }, end: { hour: 6, minute: 45 } },
        keychains: [{ id: keychainId }],
        blockedApps: [{ id: blockedAppId, identifier: 'Roblox' }],
      }),
    );

    const output = await mac('CheckIn_v2', checkInInput(), token);
    const keychain = output.keychains.find((k) => k.id === upper(keychainId));
    expect(keychain, JSON.stringify(output.keychains)).toBeDefined();
    expect(keychain!.keys).toHaveLength(2);
    expect(keychain!.keys).toContainEqual({
      id: upper(websiteKey),
      key: { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    });
    expect(keychain!.keys).toContainEqual({
      id: upper(appKey),
      key: {
        type: 'domain',
        domain: 'zoom.us',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
      },
    });
    expect(output.userData.downtime).toEqual({
      start: { hour: 21, minute: 30 },
      end: { hour: 6, minute: 45 },
    });
    expect(output.userData.blockedApps).toEqual([{ identifier: 'Roblox' }]);

    // the deprecated CheckIn (app 2.0.4 – 2.4.0): the same keys, flat
    const old = await mac('CheckIn', checkInInput({ appVersion: '2.4.0' }), token);
    expect(old.keys.map((k) => k.id).sort()).toEqual([upper(websiteKey), upper(appKey)].sort());
    expect(old.userData.name).toBe('Kim');
    expect(old.appManifest.apps.safari).toContain('com.apple.Safari');
  });

  test('resolvedUnlockRequests: only the decided ones the app asks about', async () => {
    const { token } = await connectMac();
    const ids = await mac(
      'CreateUnlockRequests_v3',
      {
        blockedRequests: [
          {
            bundleId: 'com.apple.Safari',
            url: 'https://www.khanacademy.org/math',
            hostname: 'www.khanacademy.org',
            ipAddress: '142.250.72.14',
          },
          { bundleId: 'us.zoom.xos', hostname: 'zoom.us' },
        ],
        comment: 'for homework',
      },
      token,
    );
    expect(ids).toHaveLength(2);
    const [khan, zoom] = ids as [string, string];
    await parent('UpdateUnlockRequest', {
      id: lower(khan),
      status: 'accepted',
      responseComment: 'ok',
    });

    const output = await mac(
      'CheckIn_v2',
      checkInInput({ pendingUnlockRequests: [khan, zoom] }),
      token,
    );
    expect(output.resolvedUnlockRequests).toEqual([
      { id: khan, status: 'accepted', target: 'https://www.khanacademy.org/math', comment: 'ok' },
    ]);
  });

  test('resolvedFilterSuspension: the decision, synthesized, with its extra monitoring', async () => {
    const { token } = await connectMac({ screenshotsEnabled: true, screenshotsFrequency: 120 });
    const id = await mac(
      'CreateSuspendFilterRequest_v2',
      { duration: 600, comment: 'installing mods' },
      token,
    );
    expect(id).toMatch(/^[0-9A-F-]{36}$/);

    const pending = await mac('CheckIn_v2', checkInInput({ pendingFilterSuspension: id }), token);
    expect(pending.resolvedFilterSuspension).toBeUndefined();

    const { extraMonitoringOptions } = await parent('GetSuspendFilterRequest', lower(id));
    const option = Object.keys(extraMonitoringOptions).find((key) => /^@\d+$/.test(key));
    expect(option, JSON.stringify(extraMonitoringOptions)).toBeDefined();
    await parent('DecideFilterSuspensionRequest', {
      id: lower(id),
      decision: { case: 'accepted', durationInSeconds: 300, extraMonitoring: option },
      responseComment: 'be good',
    });

    const output = await mac('CheckIn_v2', checkInInput({ pendingFilterSuspension: id }), token);
    expect(output.resolvedFilterSuspension).toEqual({
      id,
      decision: {
        case: 'accepted',
        duration: 300,
        extraMonitoring: { case: 'setScreenshotFreq', _0: Number(option!.slice(1)) },
      },
      comment: 'be good',
    });
  });

  test('resolvedFilterSuspension: keylogging alone, and a rejection', async () => {
    const { token } = await connectMac({ screenshotsEnabled: true, screenshotsFrequency: 120 });
    // a Mac's next request while one is pending is answered with it, so each is decided first
    const granted = await mac('CreateSuspendFilterRequest_v2', { duration: 900 }, token);
    await parent('DecideFilterSuspensionRequest', {
      id: lower(granted),
      decision: { case: 'accepted', durationInSeconds: 900, extraMonitoring: 'k' },
    });
    const refused = await mac('CreateSuspendFilterRequest_v2', { duration: 900 }, token);
    await parent('DecideFilterSuspensionRequest', {
      id: lower(refused),
      decision: { case: 'rejected' },
    });

    const first = await mac(
      'CheckIn_v2',
      checkInInput({ pendingFilterSuspension: granted }),
      token,
    );
    expect(first.resolvedFilterSuspension).toEqual({
      id: granted,
      decision: { case: 'accepted', duration: 900, extraMonitoring: { case: 'addKeylogging' } },
    });
    const second = await mac(
      'CheckIn_v2',
      checkInInput({ pendingFilterSuspension: refused }),
      token,
    );
    expect(second.resolvedFilterSuspension).toEqual({
      id: refused,
      decision: { case: 'rejected' },
    });
  });
});

describe('activity the Mac sends', () => {
  test('CreateKeystrokeLines: times as reference-date numbers, seen by the parent at those times', async () => {
    const { childId, token } = await connectMac({ keyloggingEnabled: true });
    const time = macDate(-5 * 60_000);
    const result = await mac(
      'CreateKeystrokeLines',
      [{ appName: 'Notes', line: 'my homework is done', filterSuspended: false, time }],
      token,
    );
    expect(result).toEqual({ success: true });

    const day = server.clock.now();
    const feed = await parent('UserActivityFeed', {
      userId: childId,
      range: {
        start: new Date(day.getTime() - 86_400_000).toISOString(),
        end: new Date(day.getTime() + 86_400_000).toISOString(),
      },
    });
    const line = feed.items.find((item: { case: string }) => item.case === 'keystrokeLine');
    expect(line, JSON.stringify(feed)).toBeDefined();
    expect(line.line).toContain('my homework is done');
    expect(Math.abs(Date.parse(line.createdAt) - time.getTime())).toBeLessThan(1000);
  });

  test('CreateSignedScreenshotUpload: createdAt as a reference-date number; absolute upload and web URLs', async () => {
    const { token, userData } = await connectMac({ screenshotsEnabled: true });
    const createdAt = macDate(-60_000);
    const output = await mac(
      'CreateSignedScreenshotUpload',
      { width: 1440, height: 900, filterSuspended: false, createdAt },
      token,
    );
    for (const url of [output.uploadUrl, output.webUrl]) {
      expect(new URL(url).protocol).toMatch(/^https?:$/);
    }
    const row = await server.db
      .selectFrom('screenshots')
      .select(['created_at', 'width', 'height'])
      .where('computer_user_id', '=', userData.deviceId.toLowerCase())
      .executeTakeFirst();
    expect(row).toBeDefined();
    expect(Math.abs(Date.parse(row!.created_at) - createdAt.getTime())).toBeLessThan(1000);
    expect([row!.width, row!.height]).toEqual([1440, 900]);

    // without a createdAt (an older app): the key is omitted, not null
    const later = await mac('CreateSignedScreenshotUpload', { width: 800, height: 600 }, token);
    expect(new URL(later.uploadUrl).protocol).toMatch(/^https?:$/);
  });

  test.each([
    ['a whole second', 0],
    ['a Mac clock’s fraction', 0.123_456],
    ['a fraction close to the next second', 0.999_9],
  ])('a date number with %s is never refused with 400', async (_what, fraction) => {
    const { token } = await connectMac();
    const base = Math.floor(toSwiftReferenceSeconds(server.clock.now())) - 30 + fraction;
    const time = new Date((base + 978_307_200) * 1000);
    const lines = await macSend(
      'CreateKeystrokeLines',
      [{ appName: 'Terminal', line: 'ls', time }],
      token,
    );
    expect(lines.status, lines.text).toBe(200);
    const upload = await macSend(
      'CreateSignedScreenshotUpload',
      { width: 100, height: 100, filterSuspended: true, createdAt: time },
      token,
    );
    expect(upload.status, upload.text).toBe(200);
  });

  test('LogFilterEvents: bundle ids as an object, events as a flat [event, count, …] array; answers {}', async () => {
    const { token } = await connectMac();
    const output = await mac(
      'LogFilterEvents',
      {
        bundleIds: { 'com.apple.Safari': 14, 'us.zoom.xos': 2 },
        events: [
          [{ id: 'b5d1c1a4', detail: 'blocked flow from com.example.app' }, 3],
          [{ id: '7e4bf0a8' }, 1],
        ],
      },
      token,
    );
    expect(output).toEqual({});
  });

  test('LogSecurityEvent: the device id upper case; the parent sees the event', async () => {
    const { childId, token, userData } = await connectMac();
    const output = await mac(
      'LogSecurityEvent',
      { deviceId: userData.deviceId, event: 'appQuit', detail: 'quit from the menu bar' },
      token,
    );
    expect(output).toEqual({ success: true });
    const feed: { case: string; childId?: string; event: string; detail?: string }[] =
      await parent('SecurityEventsFeed');
    expect(
      feed.filter((event) => event.case === 'child' && event.childId === lower(childId)),
    ).toMatchObject([{ event: 'App quit', detail: 'quit from the menu bar' }]);
  });

  test('ReportBrowsers answers success', async () => {
    const { token } = await connectMac();
    const output = await mac(
      'ReportBrowsers',
      [
        { name: 'Safari', bundleId: 'com.apple.Safari' },
        { name: 'Orion', bundleId: 'com.kagi.kagimacOS' },
      ],
      token,
    );
    expect(output).toEqual({ success: true });
  });
});

describe('unauthenticated operations', () => {
  test('LogInterestingEvent, with and without a device id', async () => {
    const { userData } = await connectMac();
    expect(
      await mac('LogInterestingEvent', {
        eventId: '3e4f7a2b',
        kind: 'event',
        deviceId: userData.deviceId,
        detail: 'onboarding step 4',
      }),
    ).toEqual({ success: true });
    expect(
      await mac('LogInterestingEvent', { eventId: '9c1d0e7f', kind: 'unexpected error' }),
    ).toEqual({ success: true });
  });

  test('RecentAppVersions: no body; a [String: String] object', async () => {
    const versions = await mac('RecentAppVersions', undefined);
    for (const [version, value] of Object.entries(versions)) {
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(typeof value).toBe('string');
    }
  });

  test('TrustedTime: no body; a bare number, seconds since 1970', async () => {
    const time = await mac('TrustedTime', undefined);
    expect(time).toBeGreaterThan(nowSeconds() - 5);
    expect(time).toBeLessThan(nowSeconds() + 5);
  });
});

// ---------------------------------------------------------------------------
// The push channel

interface Channel {
  socket: WebSocket;
  received: Infer<typeof macPushFromServer>[];
  send(message: Infer<typeof macPushFromApp>): void;
  next<C extends Infer<typeof macPushFromServer>['case']>(
    which: C,
  ): Promise<Extract<Infer<typeof macPushFromServer>, { case: C }>>;
  closed: Promise<number>;
}

describe('the push channel: GET /app-websocket with Authorization: Bearer', () => {
  let baseUrl: string;
  beforeAll(async () => {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = address.replace(/^http/, 'ws');
  });
  const open: Channel[] = [];
  afterAll(() => {
    for (const channel of open) channel.socket.close();
  });

  function openChannel(token: string): Promise<Channel> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${baseUrl}${MAC_WEBSOCKET_PATH}`, {
        headers: { Authorization: `Bearer ${token.toUpperCase()}` },
      });
      const received: Infer<typeof macPushFromServer>[] = [];
      const waiters: (() => void)[] = [];
      const problems: Error[] = [];
      socket.on('message', (data) => {
        const text = data.toString();
        try {
          // the app decodes pushes with a default JSONDecoder
          received.push(
            decodeSwift(macPushFromServer, JSON.parse(text), { dates: 'deferredToDate' }),
          );
        } catch (error) {
          problems.push(
            new Error(`the Mac app cannot decode the push ${text}: ${(error as Error).message}`),
          );
        }
        for (const waiter of waiters.splice(0)) waiter();
      });
      const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
      socket.on('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode}`)),
      );
      socket.on('error', reject);
      socket.on('open', () => {
        const channel: Channel = {
          socket,
          received,
          closed,
          send: (message) => socket.send(swiftJsonText(encodeSwift(macPushFromApp, message))),
          next: (which) =>
            new Promise((done, fail) => {
              const timer = setTimeout(
                () => fail(new Error(`no ${which} push; got ${JSON.stringify(received)}`)),
                5000,
              );
              const check = () => {
                if (problems.length) {
                  clearTimeout(timer);
                  fail(problems[0]);
                  return;
                }
                const index = received.findIndex((message) => message.case === which);
                if (index === -1) {
                  waiters.push(check);
                  return;
                }
                clearTimeout(timer);
                // biome-ignore lint/suspicious/noExplicitAny: narrowed by case above
                done(received.splice(index, 1)[0] as any);
              };
              check();
            }),
        };
        open.push(channel);
        resolve(channel);
      });
    });
  }

  async function statusOf(childId: string) {
    const widgets = await parent('DashboardWidgets');
    const child = widgets.children.find(
      (c: { id: string }) => c.id.toLowerCase() === childId.toLowerCase(),
    );
    return child?.status as { case: string; resuming?: string } | undefined;
  }

  async function eventuallyStatus(childId: string, want: string) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const status = await statusOf(childId);
      if (status?.case === want || Date.now() > deadline) return status;
      await new Promise((done) => setTimeout(done, 25));
    }
  }

  test('the filter state the app sends (v2 with reference-date times, and the deprecated form) reaches the parent', async () => {
    const { childId, token } = await connectMac();
    const channel = await openChannel(token);

    channel.send({ case: 'currentFilterState_v2', _0: { case: 'on' } });
    expect((await eventuallyStatus(childId, 'filterOn'))?.case).toBe('filterOn');

    const resuming = new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000 + 600_000);
    channel.send({ case: 'currentFilterState_v2', _0: { case: 'suspended', resuming } });
    const suspended = await eventuallyStatus(childId, 'filterSuspended');
    expect(suspended?.case).toBe('filterSuspended');
    expect(Date.parse(suspended!.resuming!)).toBe(resuming.getTime());

    channel.send({ case: 'currentFilterState', _0: 'off' });
    expect((await eventuallyStatus(childId, 'filterOff'))?.case).toBe('filterOff');

    channel.send({ case: 'goingOffline' });
    expect((await eventuallyStatus(childId, 'offline'))?.case).toBe('offline');
  });

  test('decisions and setting changes arrive as FromApiToApp messages the app decodes', async () => {
    const { childId, token } = await connectMac({
      screenshotsEnabled: true,
      screenshotsFrequency: 120,
    });
    const channel = await openChannel(token);
    channel.send({ case: 'currentFilterState_v2', _0: { case: 'on' } });
    await eventuallyStatus(childId, 'filterOn');

    // an unlock request, accepted
    const [unlockId = ''] = await mac(
      'CreateUnlockRequests_v3',
      {
        blockedRequests: [
          { bundleId: 'com.apple.Safari', url: 'https://scratch.mit.edu/projects' },
        ],
      },
      token,
    );
    await parent('UpdateUnlockRequest', {
      id: lower(unlockId),
      status: 'accepted',
      responseComment: 'have fun',
    });
    expect(await channel.next('unlockRequestUpdated_v2')).toEqual({
      case: 'unlockRequestUpdated_v2',
      id: unlockId,
      status: 'accepted',
      target: 'https://scratch.mit.edu/projects',
      comment: 'have fun',
    });

    // a filter suspension, accepted with more screenshots
    const suspensionId = await mac('CreateSuspendFilterRequest_v2', { duration: 600 }, token);
    const { extraMonitoringOptions } = await parent('GetSuspendFilterRequest', lower(suspensionId));
    const option = Object.keys(extraMonitoringOptions).find((key) => /^@\d+$/.test(key))!;
    await parent('DecideFilterSuspensionRequest', {
      id: lower(suspensionId),
      decision: { case: 'accepted', durationInSeconds: 300, extraMonitoring: option },
    });
    expect(await channel.next('filterSuspensionRequestDecided_v2')).toEqual({
      case: 'filterSuspensionRequestDecided_v2',
      id: suspensionId,
      decision: {
        case: 'accepted',
        duration: 300,
        extraMonitoring: { case: 'setScreenshotFreq', _0: Number(option.slice(1)) },
      },
    });

    // a refusal, with a comment
    const refusedId = await mac('CreateSuspendFilterRequest_v2', { duration: 600 }, token);
    await parent('DecideFilterSuspensionRequest', {
      id: lower(refusedId),
      decision: { case: 'rejected' },
      responseComment: 'not tonight',
    });
    expect(await channel.next('filterSuspensionRequestDecided_v2')).toEqual({
      case: 'filterSuspensionRequestDecided_v2',
      id: refusedId,
      decision: { case: 'rejected' },
      comment: 'not tonight',
    });

    // the parent changes the child's settings
    await parent(
      'SaveUser',
      newChildInput({ id: childId, isNew: false, name: 'Lily', keyloggingEnabled: true }),
    );
    expect(await channel.next('userUpdated')).toEqual({ case: 'userUpdated' });
  });

  test('an unknown token is refused (HTTP 401 or close code 4999)', async () => {
    const outcome = await openChannel(newToken()).then(
      (channel) => channel.closed.then((code) => `close ${code}`),
      (error: Error) => error.message,
    );
    expect(['HTTP 401', 'close 4999']).toContain(outcome);
  });
});
