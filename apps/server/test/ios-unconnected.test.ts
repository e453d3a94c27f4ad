import type { BlockRule } from '@keyward/contract/shared';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { IOS_BLOCK_GROUPS } from '../src/db/migrations/0005_ios_block_groups.ts';
import {
  IOS_APP_BLOCK_GROUP_IDS,
  IOS_APP_BLOCK_GROUPS_ADDED,
  IOS_GIF_RULES_ADDED,
} from '../src/db/migrations/0016_ios_app_block_groups.ts';
import { parseIosAppSettings } from '../src/ios/settings.ts';
import { newToken } from '../src/services/tokens.ts';
import { addChild, addConnectionCode, serverWithParents } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// The iOS app's unauthenticated operations (server-behaviour §5), as the app 1.5.0 calls them
// without a parent account: its block rules (BlockRules_v2, DefaultBlockRules, the deprecated
// BlockRules), its diagnostic events (LogIOSEvent), RecoveryDirective and
// ConnectAccountFeatureFlag. Bodies are written as the app's JSONEncoder writes them (UUIDs upper
// case, nil optionals left out); answers are checked against the app's own coding.

const { server, alice } = await serverWithParents();

function ios(s: TestServer, op: string, input: unknown, options: { raw?: string } = {}) {
  return s.call(op, input, {
    namespace: 'ios-app',
    ...(options.raw === undefined ? {} : { rawBody: options.raw }),
  });
}

/** `BlockRule.Legacy` as Swift synthesizes it, written out independently of ios/wire.ts. */
function legacy(rule: BlockRule): unknown {
  if (rule.case === 'both') return { both: { _0: legacy(rule.a), _1: legacy(rule.b) } };
  if (rule.case === 'unless') {
    return { unless: { rule: legacy(rule.rule), negatedBy: rule.negatedBy.map(legacy) } };
  }
  if (rule.case === 'flowTypeIs') return { flowTypeIs: { _0: { [rule.value]: {} } } };
  return { [rule.case]: { _0: rule.value } };
}

const groupsById = new Map(
  [...IOS_BLOCK_GROUPS, ...IOS_APP_BLOCK_GROUPS_ADDED].map((g) => [
    g.id,
    g.id === IOS_APP_BLOCK_GROUP_IDS.gifs ? [...g.rules, ...IOS_GIF_RULES_ADDED] : g.rules,
  ]),
);

/** The app's groups' rules, in the order the server answers (by group id, then rule id). */
function rulesOf(names: (keyof typeof IOS_APP_BLOCK_GROUP_IDS)[]): unknown[] {
  return names
    .map((name) => IOS_APP_BLOCK_GROUP_IDS[name])
    .sort()
    .flatMap((id) => groupsById.get(id)!)
    .map(legacy);
}

const ALL_APP_GROUPS = Object.keys(
  IOS_APP_BLOCK_GROUP_IDS,
) as (keyof typeof IOS_APP_BLOCK_GROUP_IDS)[];

async function connectedIpad(vendorId = newToken()) {
  const childId = await addChild(server, alice.adminId);
  const code = await addConnectionCode(server, childId);
  const result = await server.call(
    'ConnectDevice',
    {
      verificationCode: code,
      vendorId: vendorId.toUpperCase(),
      deviceType: 'iPhone',
      appVersion: '1.5.0',
      iosVersion: '18.1',
    },
    { namespace: 'ios-app' },
  );
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { vendorId, deviceId: result.body.deviceId as string, token: result.body.token as string };
}

const noRoblox = { case: 'hostnameEndsWith', value: 'roblox.com' } as const;
const inBrowser: BlockRule = {
  case: 'both',
  a: { case: 'targetContains', value: 'wikipedia.org' },
  b: { case: 'flowTypeIs', value: 'browser' },
};

describe('BlockRules_v2', () => {
  test('every group of the app but the disabled ones, in the app’s legacy coding', async () => {
    const raw = `{"disabledGroups":["appleMapsImages","aiFeatures","appStoreImages","spotlightSearches","ads","whatsAppFeatures","appleWebsite","spotifyImages"],"vendorId":"${newToken().toUpperCase()}","version":"1.5.0"}`;
    const onlyGifs = await ios(server, 'BlockRules_v2', undefined, { raw });
    expect(onlyGifs.status, JSON.stringify(onlyGifs.body)).toBe(200);
    expect(onlyGifs.body).toEqual(rulesOf(['gifs']));
    expect(onlyGifs.body).toContainEqual({ hostnameEndsWith: { _0: 'giphy.com' } });
    expect(onlyGifs.body).toContainEqual({
      both: {
        _0: { bundleIdContains: { _0: 'com.apple.MobileSMS' } },
        _1: { urlContains: { _0: '/gifs' } },
      },
    });
    expect(onlyGifs.body).toContainEqual({ bundleIdContains: { _0: 'HashtagImagesExtension' } });

    const all = await ios(server, 'BlockRules_v2', {
      disabledGroups: [],
      vendorId: newToken().toUpperCase(),
      version: '1.5.0',
    });
    expect(all.body).toEqual(rulesOf(ALL_APP_GROUPS));
    // a nested `unless` with a flow type (apple.com website group)
    expect(all.body).toContainEqual({
      unless: {
        rule: {
          both: {
            _0: { flowTypeIs: { _0: { browser: {} } } },
            _1: { hostnameEndsWith: { _0: '.apple.com' } },
          },
        },
        negatedBy: expect.arrayContaining([{ hostnameEquals: { _0: 'appleid.apple.com' } }]),
      },
    });
    // the dashboard-only groups (games, social media, streaming, …) are never sent
    expect(all.body).not.toContainEqual({ bundleIdContains: { _0: 'com.roblox' } });
    expect(all.body).not.toContainEqual({ bundleIdContains: { _0: 'com.spotify.client' } });
  });

  test('apps before 1.5.0 never offered the Spotify group: it is off for them', async () => {
    const ask = (version: string, disabledGroups: string[] = []) =>
      ios(server, 'BlockRules_v2', { disabledGroups, vendorId: newToken(), version });
    const withoutSpotify = rulesOf(ALL_APP_GROUPS.filter((g) => g !== 'spotifyImages'));
    expect((await ask('1.4.2')).body).toEqual(withoutSpotify);
    expect((await ask('1.3.0', ['gifs'])).body).toEqual(
      rulesOf(ALL_APP_GROUPS.filter((g) => g !== 'spotifyImages' && g !== 'gifs')),
    );
    expect((await ask('1.5.0')).body).toEqual(rulesOf(ALL_APP_GROUPS));
    expect((await ask('2.0')).body).toEqual(rulesOf(ALL_APP_GROUPS));
    expect((await ask('dev build')).body).toEqual(rulesOf(ALL_APP_GROUPS));
  });

  test('a group name this server does not know is ignored', async () => {
    const result = await ios(server, 'BlockRules_v2', {
      disabledGroups: ['holograms', 'gifs'],
      vendorId: newToken(),
      version: '1.6.0',
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(rulesOf(ALL_APP_GROUPS.filter((g) => g !== 'gifs')));
  });

  test('the vendor id of a connected device adds that device’s own rules', async () => {
    const ipad = await connectedIpad();
    for (const rule of [noRoblox, inBrowser]) {
      const saved = await server.call(
        'UpsertBlockRule',
        { deviceId: ipad.deviceId, rule },
        { token: alice.token },
      );
      expect(saved.status).toBe(200);
      // a device's own rules come in the order they were made
      server.clock.advance(1000);
    }
    const disabledGroups = ALL_APP_GROUPS.filter((g) => g !== 'ads');
    const ask = (vendorId: string) =>
      ios(server, 'BlockRules_v2', { disabledGroups, vendorId, version: '1.5.0' });
    const own = [
      { hostnameEndsWith: { _0: 'roblox.com' } },
      {
        both: {
          _0: { targetContains: { _0: 'wikipedia.org' } },
          _1: { flowTypeIs: { _0: { browser: {} } } },
        },
      },
    ];
    expect((await ask(ipad.vendorId.toUpperCase())).body).toEqual([...rulesOf(['ads']), ...own]);
    expect((await ask(newToken())).body).toEqual(rulesOf(['ads']));

    // disconnected (no token left): its rules are no longer anyone's
    await server.db.deleteFrom('ios_app_tokens').where('device_id', '=', ipad.deviceId).execute();
    expect((await ask(ipad.vendorId)).body).toEqual(rulesOf(['ads']));
  });

  test('the nil vendor id is nobody’s, even when a device connected with it', async () => {
    const nil = '00000000-0000-0000-0000-000000000000';
    const ipad = await connectedIpad(nil);
    await server.call(
      'UpsertBlockRule',
      { deviceId: ipad.deviceId, rule: noRoblox },
      { token: alice.token },
    );
    const result = await ios(server, 'BlockRules_v2', {
      disabledGroups: [],
      vendorId: nil,
      version: '1.5.0',
    });
    expect(result.body).toEqual(rulesOf(ALL_APP_GROUPS));
  });

  test('the app’s required keys are required', async () => {
    for (const input of [
      { disabledGroups: [], version: '1.5.0' },
      { vendorId: newToken(), version: '1.5.0' },
      { disabledGroups: [], vendorId: newToken() },
      { disabledGroups: 'gifs', vendorId: newToken(), version: '1.5.0' },
    ]) {
      expect((await ios(server, 'BlockRules_v2', input)).status, JSON.stringify(input)).toBe(400);
    }
  });
});

describe('DefaultBlockRules and the deprecated BlockRules', () => {
  test('the rules of every group of the app, whoever asks', async () => {
    const ipad = await connectedIpad();
    await server.call(
      'UpsertBlockRule',
      { deviceId: ipad.deviceId, rule: noRoblox },
      { token: alice.token },
    );
    const everything = rulesOf(ALL_APP_GROUPS);
    const anonymous = await ios(server, 'DefaultBlockRules', { version: '1.5.0' });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual(everything);
    const known = await ios(server, 'DefaultBlockRules', {
      vendorId: ipad.vendorId.toUpperCase(),
      version: '1.3.0',
    });
    expect(known.body).toEqual(everything);
    expect((await ios(server, 'DefaultBlockRules', {})).status).toBe(400);

    for (const input of [{}, { vendorId: ipad.vendorId, version: '1.1.0' }, { version: null }]) {
      const old = await ios(server, 'BlockRules', input);
      expect(old.status, JSON.stringify(input)).toBe(200);
      expect(old.body).toEqual(everything);
    }
  });
});

describe('LogIOSEvent', () => {
  const event = (overrides: Record<string, unknown> = {}) => ({
    eventId: '8d35f043',
    kind: 'ios',
    deviceType: 'iPhone',
    iOSVersion: '18.0.1',
    ...overrides,
  });
  const stored = (eventId: string) =>
    server.db
      .selectFrom('app_events')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('context', '=', 'ios')
      .execute();

  test('answers {} and keeps the event for the operator', async () => {
    const ipad = await connectedIpad();
    const result = await ios(
      server,
      'LogIOSEvent',
      event({
        eventId: 'a1f00001',
        vendorId: ipad.vendorId.toUpperCase(),
        detail: '[onboarding]: first launch, region: `US`',
      }),
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({});
    const rows = await stored('a1f00001');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'onboarding',
      context: 'ios',
      computer_user_id: null,
      parent_id: alice.adminId,
      detail: `[iPhone, iOS 18.0.1, vendor id ${ipad.vendorId}, ios] first launch, region: \`US\``,
    });

    await ios(server, 'LogIOSEvent', event({ eventId: 'a1f00002', detail: 'filter install ok' }));
    await ios(server, 'LogIOSEvent', event({ eventId: 'a1f00003' }));
    expect(await stored('a1f00002')).toMatchObject([
      {
        kind: 'filter',
        parent_id: null,
        detail: '[iPhone, iOS 18.0.1, vendor id none, ios] filter install ok',
      },
    ]);
    expect(await stored('a1f00003')).toMatchObject([
      { kind: 'info', detail: '[iPhone, iOS 18.0.1, vendor id none, ios]' },
    ]);
  });

  test('every field is capped; a long detail is kept to its first 2,000 characters', async () => {
    const long = await ios(
      server,
      'LogIOSEvent',
      event({ eventId: 'a1f00004', detail: 'x'.repeat(16_384) }),
    );
    expect(long.status).toBe(200);
    const [row] = await stored('a1f00004');
    expect(row?.detail).toHaveLength(2000);
    for (const input of [
      event({ detail: 'x'.repeat(16_385) }),
      event({ eventId: 'e'.repeat(65) }),
      event({ deviceType: 'i'.repeat(65) }),
      event({ iOSVersion: undefined }),
      event({ vendorId: 'not a uuid' }),
    ]) {
      expect((await ios(server, 'LogIOSEvent', input)).status).toBe(400);
    }
  });

  test('an address may send a bounded number of events an hour, then 429', async () => {
    // RATE_LIMIT_SCALE 0.05: the budget of 120 an hour becomes 6
    const strict = await createTestServer({ env: { RATE_LIMIT_SCALE: '0.05' } });
    try {
      for (let i = 0; i < 6; i++) {
        const ok = await ios(strict, 'LogIOSEvent', event({ eventId: `b2e0000${i}` }));
        expect(ok.status).toBe(200);
      }
      const over = await ios(strict, 'LogIOSEvent', event({ eventId: 'b2e00009' }));
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ id: 'c4a1e8d2', type: 'badRequest' });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      const count = await strict.db
        .selectFrom('app_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('context', '=', 'ios')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(6);
      // the next hour has a fresh budget
      strict.clock.advance(60 * 60 * 1000);
      expect((await ios(strict, 'LogIOSEvent', event())).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('RecoveryDirective and ConnectAccountFeatureFlag', () => {
  afterEach(() => {
    server.config.iosApp = parseIosAppSettings({});
  });

  const recovery = (vendorId?: string) =>
    ios(server, 'RecoveryDirective', {
      ...(vendorId ? { vendorId: vendorId.toUpperCase() } : {}),
      deviceType: 'iPad',
      iOSVersion: '18.1',
      locale: 'GB',
      version: '1.5.0',
    });

  test('no directive unless the operator names the device (or every device)', async () => {
    const vendorId = newToken();
    expect(await recovery(vendorId)).toMatchObject({ status: 200, body: {} });
    expect((await recovery(vendorId)).body).toEqual({});

    server.config.iosApp = parseIosAppSettings({
      IOS_RECOVERY_RETRY_VENDOR_IDS: ` ${newToken()}, ${vendorId.toUpperCase()} `,
    });
    expect((await recovery(vendorId)).body).toEqual({ directive: 'retry' });
    expect((await recovery(newToken())).body).toEqual({});
    expect((await recovery()).body).toEqual({});

    server.config.iosApp = parseIosAppSettings({ IOS_RECOVERY_RETRY_VENDOR_IDS: '*' });
    expect((await recovery()).body).toEqual({ directive: 'retry' });

    const minimal = await ios(server, 'RecoveryDirective', {
      deviceType: 'iPad',
      iOSVersion: '18',
    });
    expect(minimal.status).toBe(200);
    expect((await ios(server, 'RecoveryDirective', { deviceType: 'iPad' })).status).toBe(400);
  });

  test('the feature flag: no body, off unless configured', async () => {
    const bare = await server.app.inject({
      method: 'POST',
      url: '/pairql/ios-app/ConnectAccountFeatureFlag',
    });
    expect(bare.statusCode).toBe(200);
    expect(JSON.parse(bare.body)).toEqual({ isEnabled: false });

    server.config.iosApp = parseIosAppSettings({ IOS_CONNECT_ACCOUNT_ENABLED: 'true' });
    const on = await ios(server, 'ConnectAccountFeatureFlag', undefined);
    expect(on.body).toEqual({ isEnabled: true });
  });

  test('a bad setting is a configuration error naming the variable', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: server.config.dataDir };
    expect(() => loadConfig({ ...base, IOS_RECOVERY_RETRY_VENDOR_IDS: 'abc' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...base, IOS_RECOVERY_RETRY_VENDOR_IDS: 'abc' })).toThrow(
      /IOS_RECOVERY_RETRY_VENDOR_IDS/,
    );
    expect(() => loadConfig({ ...base, IOS_CONNECT_ACCOUNT_ENABLED: 'yes please' })).toThrow(
      /IOS_CONNECT_ACCOUNT_ENABLED/,
    );
    expect(loadConfig(base).iosApp).toEqual({
      recoveryRetry: new Set(),
      connectAccountEnabled: false,
    });
  });
});
