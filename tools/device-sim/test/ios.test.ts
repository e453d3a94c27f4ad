import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestServer } from '../../../apps/server/test/harness.ts';
import { parseArgs, UsageError } from '../src/args.ts';
import {
  appBlockGroupsOf,
  appJson,
  DEFAULT_IOS_APP,
  flowOf,
  formatIosDecision,
  formatIosRules,
  fromIosBlockRule,
  fromIosSuspensionDecision,
  fromIosWebPolicy,
  fromLegacyBlockRule,
  iosFactsOf,
  iosStateFileOf,
  loadIosState,
} from '../src/ios.ts';
import { dashboardAs, type ListeningServer, SimulatedMac } from './helpers.ts';

// The iOS mode (`ios …`): the pure helpers (the app's wire read back into the simulator's shapes),
// then every command against the REAL server, with the parent's side played through the dashboard
// operations.

describe('iOS helpers', () => {
  test('the iOS state file sits beside the Mac one', () => {
    expect(iosStateFileOf('/x/.device-sim/state.json')).toBe('/x/.device-sim/state.ios.json');
    expect(iosStateFileOf('/x/ipad')).toBe(path.join('/x', 'ipad.ios.json'));
  });

  test('flags win over the previous facts, which win over the defaults', () => {
    const first = iosFactsOf({}, undefined);
    expect(first).toMatchObject({ deviceType: 'iPad', iosVersion: '17.5', appVersion: '1.5.0' });
    expect(first.vendorId).toMatch(/^[0-9a-f-]{36}$/);
    const again = iosFactsOf({ 'device-type': 'iPhone', 'ios-version': '18.1' }, first);
    expect(again).toEqual({ ...first, deviceType: 'iPhone', iosVersion: '18.1' });
  });

  test.each<[string, string, Parameters<typeof flowOf>[1], object]>([
    [
      'a host from Safari is a browser flow',
      'khanacademy.org',
      {},
      { bundleId: DEFAULT_IOS_APP, hostname: 'khanacademy.org', isBrowser: true },
    ],
    [
      'a URL keeps its host',
      'https://www.youtube.com/shorts/x',
      {},
      {
        bundleId: DEFAULT_IOS_APP,
        hostname: 'www.youtube.com',
        url: 'https://www.youtube.com/shorts/x',
        isBrowser: true,
      },
    ],
    [
      'an app is not a browser by default',
      'api.roblox.com',
      { app: 'com.roblox.robloxmobile' },
      { bundleId: 'com.roblox.robloxmobile', hostname: 'api.roblox.com', isBrowser: false },
    ],
    [
      '--browser makes it one',
      'duckduckgo.com',
      { app: 'com.duckduckgo.mobile.ios', browser: true },
      { bundleId: 'com.duckduckgo.mobile.ios', isBrowser: true },
    ],
    [
      '--no-browser from Safari',
      'example.com',
      { noBrowser: true },
      { bundleId: DEFAULT_IOS_APP, isBrowser: false },
    ],
  ])('flow: %s', (_, raw, options, expected) => {
    expect(flowOf(raw, options)).toMatchObject(expected);
  });

  test('a check needs a target, and not both --browser and --no-browser', () => {
    expect(() => flowOf(undefined, {})).toThrow(UsageError);
    expect(() => flowOf('x.org', { browser: true, noBrowser: true })).toThrow(UsageError);
    expect(parseArgs(['ios', 'check', 'x.org', '--no-browser']).flags.has('no-browser')).toBe(true);
  });

  test('rules and decisions in words', () => {
    expect(
      formatIosRules({
        blockRules: [{ case: 'targetContains', value: 'roblox' }],
        webPolicy: { case: 'blockAllExcept', domains: ['khanacademy.org', 'wikipedia.org'] },
      }),
    ).toEqual([
      'Web policy: block all websites except these domains (blockAllExcept): khanacademy.org, wikipedia.org',
      'Block rules: 1',
      '  - address roblox',
    ]);
    expect(formatIosDecision('r1', { case: 'accepted', duration: 1200, parentComment: 'ok' })).toBe(
      'suspension request r1 accepted: 20 minutes: "ok"',
    );
    expect(formatIosDecision('r1', { case: 'denied' })).toBe('suspension request r1 denied');
    expect(formatIosDecision('r1', { case: 'pending' })).toBe('suspension request r1 pending');
  });

  test('the app’s wire read back: rules, web policies, decisions', () => {
    expect(
      fromIosBlockRule({
        case: 'unless',
        rule: {
          case: 'both',
          a: { case: 'bundleIdContains', value: 'com.apple' },
          b: { case: 'flowTypeIs', value: { browser: {} } },
        },
        negatedBy: [{ case: 'flowTypeIs', value: { socket: {} } }],
      }),
    ).toEqual({
      case: 'unless',
      rule: {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.apple' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
      negatedBy: [{ case: 'flowTypeIs', value: 'socket' }],
    });
    expect(
      [
        { bundleIdContains: { _0: 'a' } },
        { urlContains: { _0: 'b' } },
        { hostnameContains: { _0: 'c' } },
        { hostnameEquals: { _0: 'd' } },
        { hostnameEndsWith: { _0: 'e' } },
        { targetContains: { _0: 'f' } },
        { flowTypeIs: { _0: { socket: {} } } },
        {
          both: {
            _0: { bundleIdContains: { _0: 'g' } },
            _1: { unless: { rule: { urlContains: { _0: 'h' } }, negatedBy: [] } },
          },
        },
      ].map(fromLegacyBlockRule),
    ).toEqual([
      { case: 'bundleIdContains', value: 'a' },
      { case: 'urlContains', value: 'b' },
      { case: 'hostnameContains', value: 'c' },
      { case: 'hostnameEquals', value: 'd' },
      { case: 'hostnameEndsWith', value: 'e' },
      { case: 'targetContains', value: 'f' },
      { case: 'flowTypeIs', value: 'socket' },
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'g' },
        b: { case: 'unless', rule: { case: 'urlContains', value: 'h' }, negatedBy: [] },
      },
    ]);
    expect(fromIosWebPolicy({ blockAll: {} })).toEqual({ case: 'blockAll' });
    expect(fromIosWebPolicy({ blockAdult: {} })).toEqual({ case: 'blockAdult' });
    expect(fromIosWebPolicy({ blockAdultAnd: { _0: ['x.com'] } })).toEqual({
      case: 'blockAdultAnd',
      domains: ['x.com'],
    });
    expect(fromIosWebPolicy({ blockAllExcept: { _0: [] } })).toEqual({
      case: 'blockAllExcept',
      domains: [],
    });
    expect(fromIosSuspensionDecision({ accepted: { duration: 600 } })).toEqual({
      case: 'accepted',
      duration: 600,
    });
    expect(fromIosSuspensionDecision({ denied: { parentComment: 'no' } })).toEqual({
      case: 'denied',
      parentComment: 'no',
    });
    expect(fromIosSuspensionDecision({ notFound: {} })).toEqual({ case: 'notFound' });
  });

  test('bodies as the app writes them: UUIDs upper case', () => {
    const id = 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f';
    expect(appJson(id)).toBe(id.toUpperCase());
    expect(appJson({ vendorId: id, deviceType: 'iPad' })).toEqual({
      vendorId: id.toUpperCase(),
      deviceType: 'iPad',
    });
    expect(appJson({ duration: 60, comment: id })).toEqual({ duration: 60, comment: id });
    expect(appBlockGroupsOf(['gifs', 'SpotifyImages'])).toEqual(['gifs', 'spotifyImages']);
    expect(() => appBlockGroupsOf(['games'])).toThrow(UsageError);
  });
});

/** The real server on a free port that is also its public address (for the upload URLs). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const live = {} as ListeningServer;
beforeAll(async () => {
  const port = await freePort();
  live.serverUrl = `http://127.0.0.1:${port}`;
  live.server = await createTestServer({
    env: { DASHBOARD_URL: live.serverUrl, PUBLIC_URL: live.serverUrl },
  });
  await live.server.app.listen({ host: '127.0.0.1', port });
  live.parentToken = (await live.server.signUpVerifiedParent()).token;
});
afterAll(async () => live.server.close());

const dashboard = (op: string, input?: unknown) => dashboardAs(live, op, input);

let ipad: SimulatedMac;
let childId: string;
let deviceId: string;

async function newCode(): Promise<string> {
  const { code } = await dashboard('CreatePendingAppConnection', { userId: childId });
  return String(code);
}

beforeEach(async () => {
  ipad = new SimulatedMac(live.serverUrl);
  childId = randomUUID();
  await dashboard('SaveUser', {
    id: childId,
    isNew: true,
    name: 'Ivy',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
    keychains: [],
  });
  const { code, printed } = await ipad.capture([
    'ios',
    'connect',
    await newCode(),
    '--device-type',
    'iPad',
    '--ios-version',
    '17.6',
  ]);
  expect(code, printed).toBe(0);
  expect(printed).toContain("is now Ivy's iPad.");
  const state = await loadIosState(iosStateFileOf(ipad.stateFile));
  deviceId = state?.deviceId ?? '';
  expect(printed).toContain(`iOS device id: ${deviceId}`);
});
afterEach(() => ipad.cleanUp());

const check = async (...args: string[]) => {
  const { code, printed } = await ipad.capture(['ios', 'check', ...args]);
  expect(code, printed).toBe(0);
  return printed.trim();
};

describe('ios against the real server', () => {
  test('connect: the parent sees the iPad; a used code is refused', async () => {
    const list = (await dashboard('IOSDevices')) as Record<string, unknown>[];
    expect(list).toContainEqual({
      id: deviceId,
      childId,
      childName: 'Ivy',
      deviceType: 'iPad',
      osVersion: '17.6',
    });
    const other = new SimulatedMac(live.serverUrl);
    try {
      const wrong = await other.capture(['ios', 'connect', '000001']);
      expect(wrong.code).toBe(1);
      expect(wrong.printed).toContain('Connection code expired, or not found.');
      expect(await other.capture(['ios', 'rules'])).toMatchObject({ code: 1 });
    } finally {
      other.cleanUp();
    }
  });

  test('rules and check follow the parent’s web policy, domains and custom rules', async () => {
    await dashboard('UpdateIOSDevice', {
      deviceId,
      enabledBlockGroups: [],
      webPolicy: 'blockAll',
      webPolicyDomains: [],
    });
    expect(await check('khanacademy.org')).toMatch(
      /^blocked: khanacademy.org in .*web policy: block all websites$/,
    );
    expect(await check('api.example.com', '--app', 'com.example.game')).toMatch(/^allowed: /);

    await dashboard('UpdateIOSDevice', {
      deviceId,
      enabledBlockGroups: [],
      webPolicy: 'blockAllExcept',
      webPolicyDomains: ['khanacademy.org', 'wikipedia.org'],
    });
    const rules = await ipad.capture(['ios', 'rules']);
    expect(rules.printed).toContain(
      'Web policy: block all websites except these domains (blockAllExcept): khanacademy.org, wikipedia.org',
    );
    expect(await check('https://www.khanacademy.org/math')).toMatch(
      /^allowed: .*on the allowed list$/,
    );
    expect(await check('en.wikipedia.org')).toMatch(/^allowed: /);
    expect(await check('youtube.com')).toMatch(/^blocked: .*not on the allowed list$/);

    await dashboard('UpsertBlockRule', {
      deviceId,
      rule: {
        case: 'both',
        a: { case: 'targetContains', value: 'wikipedia.org' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
    });
    expect(await check('en.wikipedia.org')).toMatch(
      /^blocked: .*block rule: address wikipedia.org, in a browser$/,
    );
    expect(await check('en.wikipedia.org', '--app', 'org.wikimedia.wikipedia')).toMatch(
      /^allowed: /,
    );
    expect(await check('https://www.khanacademy.org')).toMatch(/^allowed: /);

    // --json: the answer as the server sent it, in the app's coding
    const json = await ipad.capture(['ios', 'rules', '--json']);
    expect(JSON.parse(json.printed)).toEqual({
      blockRules: [
        {
          case: 'both',
          a: { case: 'targetContains', value: 'wikipedia.org' },
          b: { case: 'flowTypeIs', value: { browser: {} } },
        },
      ],
      webPolicy: { blockAllExcept: { _0: ['khanacademy.org', 'wikipedia.org'] } },
    });
  });

  test('screenshot: the capture time goes up in seconds since 2001, the JPEG to the signed URL', async () => {
    const before = Date.now();
    const { code, printed } = await ipad.capture(['ios', 'screenshot']);
    expect(code, printed).toBe(0);
    expect(printed).toContain('uploaded a 390×844 screenshot');
    const rows = await live.server.db
      .selectFrom('screenshots')
      .selectAll()
      .where('ios_device_id', '=', deviceId)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect([row.width, row.height, row.computer_user_id]).toEqual([390, 844, null]);
    const createdAt = Date.parse(row.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1);
    expect(createdAt).toBeLessThanOrEqual(Date.now() + 1);
    const stored = await live.server.db
      .selectFrom('screenshots')
      .select('object_key')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.object_key).toContain(`/${deviceId}/`);
  });

  test('standalone: the app’s groups without a parent account, and this device’s own rules', async () => {
    await dashboard('UpsertBlockRule', {
      deviceId,
      rule: { case: 'hostnameEndsWith', value: 'roblox.com' },
    });
    const all = await ipad.capture(['ios', 'standalone']);
    expect(all.code, all.printed).toBe(0);
    expect(all.printed).toContain('Without a parent account (every block group on):');
    expect(all.printed).toContain('  - host ends with giphy.com');
    expect(all.printed).toContain('  - host ends with roblox.com');

    const some = await ipad.capture(['ios', 'standalone', 'gifs', 'spotifyImages', '--json']);
    expect(some.code, some.printed).toBe(0);
    const legacy = JSON.parse(some.printed) as Record<string, unknown>[];
    expect(legacy).toContainEqual({ hostnameEndsWith: { _0: 'roblox.com' } });
    expect(legacy).not.toContainEqual({ hostnameEndsWith: { _0: 'giphy.com' } });
    expect(legacy).not.toContainEqual({ hostnameEquals: { _0: 'i.scdn.co' } });
    for (const rule of legacy) expect(Object.keys(rule)).toHaveLength(1);

    expect((await ipad.capture(['ios', 'standalone', 'games'])).code).toBe(1);
  });

  test('suspend, the parent grants from the suspension operations, poll sees it', async () => {
    const asked = await ipad.capture(['ios', 'suspend', '15', '--comment', 'school video']);
    expect(asked.code).toBe(0);
    const id = /request ([0-9a-f-]{36})/.exec(asked.printed)?.[1] ?? '';
    expect(asked.printed).toContain('asked to suspend the filter for 15 minutes');
    expect((await ipad.capture(['ios', 'poll'])).printed.trim()).toBe(
      `suspension request ${id} pending`,
    );

    const device = (await dashboard('GetIOSDevice', deviceId)) as {
      pendingSuspensionRequests: unknown[];
    };
    expect(device.pendingSuspensionRequests).toEqual([
      expect.objectContaining({ id, duration: 900, comment: 'school video' }),
    ]);
    await dashboard('DecideFilterSuspensionRequest', {
      id,
      decision: { case: 'accepted', durationInSeconds: 1200 },
      responseComment: 'ok',
    });
    expect((await ipad.capture(['ios', 'poll', id])).printed.trim()).toBe(
      `suspension request ${id} accepted: 20 minutes: "ok"`,
    );
    const state = await loadIosState(iosStateFileOf(ipad.stateFile));
    expect(state?.suspensions).toEqual([
      expect.objectContaining({
        id,
        durationSeconds: 900,
        decision: { case: 'accepted', duration: 1200, parentComment: 'ok' },
      }),
    ]);
  });

  test('a removed device is told so (exit 2); usage errors exit 1', async () => {
    await live.server.db.deleteFrom('ios_app_tokens').where('device_id', '=', deviceId).execute();
    const removed = await ipad.capture(['ios', 'rules']);
    expect(removed.code).toBe(2);
    expect(removed.printed).toContain("This iOS device's connection was removed.");
    expect((await ipad.capture(['ios'])).code).toBe(1);
    expect((await ipad.capture(['ios', 'fly'])).printed).toContain('Unknown ios command "fly"');
    expect((await ipad.capture(['ios', 'suspend'])).code).toBe(1);
  });
});
