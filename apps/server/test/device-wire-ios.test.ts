import {
  type BlockGroup,
  IOS_APP_VERSION,
  type LegacyBlockRuleValue,
} from '@keyward/contract/swift-apps';
import type { Infer } from '@keyward/contract/swift-codable';
import { describe, expect, test } from 'vitest';
import { newToken } from '../src/services/tokens.ts';
import { iosAppClient, type IosOutput } from './swift-client.ts';
import { createChild, serverWithParents } from './fixtures.ts';

// The iOS app's wire, end to end, exactly as the reference's Swift app (gertrude-app/swift,
// iOS app 1.5.0) speaks it: every operation is sent as its `URLSession` request would be (a
// default-`JSONEncoder` body: upper-case UUIDs, dates as seconds since 2001-01-01, nil optionals
// omitted, `/` escaped; `Content-Type: application/x-www-form-urlencoded`, which Darwin adds to
// a POST with a body when none is set; `X-DeviceToken` upper case; no body for an operation
// without input), and every answer must decode with the app's `JSONDecoder` (`.iso8601` dates,
// synthesized enums such as `WebContentFilterPolicy`, `BlockRule.Legacy`, `FlowType` and the
// poll's decision), modelled by @keyward/contract/swift-codable. The parent's side uses the
// dashboard operations.

const { server, alice } = await serverWithParents();

// ---------------------------------------------------------------------------
// The Swift client

const { send: iosSend, call: ios } = iosAppClient(server);

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

/** A Swift `Date()`: sub-millisecond digits, as a phone's clock has them. */
function phoneDate(offsetMs = 0): Date {
  return new Date(server.clock.now().getTime() + offsetMs + 0.123);
}

function deviceMetadata(vendorId: string) {
  return { vendorId, deviceType: 'iPhone', appVersion: IOS_APP_VERSION, iosVersion: '18.1' };
}

async function connectPhone(name = 'Ivy') {
  const childId = await createChild(server, alice, { name });
  const { code } = await parent('CreatePendingAppConnection', { userId: childId });
  const vendorId = upper(newToken());
  const device = await ios('ConnectDevice', {
    verificationCode: code,
    ...deviceMetadata(vendorId),
  });
  return { childId, name, vendorId, device, token: device.token };
}

/** Each leaf of a legacy rule, to check the whole tree decoded. */
function legacyCases(rule: LegacyBlockRuleValue): string[] {
  switch (rule.case) {
    case 'both':
      return ['both', ...legacyCases(rule._0), ...legacyCases(rule._1)];
    case 'unless':
      return ['unless', ...legacyCases(rule.rule), ...rule.negatedBy.flatMap(legacyCases)];
    default:
      return [rule.case];
  }
}

/** Every `BlockGroup` raw value the app knows. */
const BlockGroupValues = [
  'gifs',
  'appleMapsImages',
  'aiFeatures',
  'appStoreImages',
  'spotlightSearches',
  'ads',
  'whatsAppFeatures',
  'appleWebsite',
  'spotifyImages',
] as const satisfies readonly Infer<typeof BlockGroup>[];

// ---------------------------------------------------------------------------

describe('ConnectDevice', () => {
  test('answers ChildIOSDeviceData: the child, its name, a token and a device id', async () => {
    const { childId, device } = await connectPhone('Ivy');
    expect(device).toMatchObject({ childId: upper(childId), childName: 'Ivy' });
    expect(device.token).toMatch(/^[0-9A-F-]{36}$/);
    expect(device.deviceId).toMatch(/^[0-9A-F-]{36}$/);
    expect(device.deviceId).not.toBe(device.token);
  });

  test('a wrong code is refused, not 200', async () => {
    const answer = await iosSend('ConnectDevice', {
      verificationCode: 1,
      ...deviceMetadata(upper(newToken())),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});

describe('ConnectedRules', () => {
  test('block rules with the `case` coding and a synthesized WebContentFilterPolicy', async () => {
    const { vendorId, token } = await connectPhone();
    const output = await ios('ConnectedRules', deviceMetadata(vendorId), token);
    expect(output.blockRules.length).toBeGreaterThan(0);
    expect(output.webPolicy).toEqual({ case: 'blockAll' });
  });

  test('the parent’s policy with its domains, and a custom rule with a FlowType', async () => {
    const { vendorId, token, device } = await connectPhone();
    await parent('UpdateIOSDevice', {
      deviceId: lower(device.deviceId),
      enabledBlockGroups: [],
      webPolicy: 'blockAllExcept',
      webPolicyDomains: ['khanacademy.org', 'wikipedia.org'],
    });
    await parent('UpsertBlockRule', {
      deviceId: lower(device.deviceId),
      rule: {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.apple.MobileSMS' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
    });
    await parent('UpsertBlockRule', {
      deviceId: lower(device.deviceId),
      rule: { case: 'targetContains', value: 'youtube.com' },
    });

    const output = await ios(
      'ConnectedRules',
      { ...deviceMetadata(vendorId), iosVersion: '18.2' },
      token,
    );
    expect(output.webPolicy.case).toBe('blockAllExcept');
    expect(
      output.webPolicy.case === 'blockAllExcept' ? [...output.webPolicy._0].sort() : [],
    ).toEqual(['khanacademy.org', 'wikipedia.org']);
    expect(output.blockRules).toHaveLength(2);
    expect(output.blockRules).toContainEqual({
      case: 'both',
      a: { case: 'bundleIdContains', value: 'com.apple.MobileSMS' },
      b: { case: 'flowTypeIs', value: { case: 'browser' } },
    });
    expect(output.blockRules).toContainEqual({ case: 'targetContains', value: 'youtube.com' });
  });

  test('blockAdultAnd carries its domains as `_0`; allowAll and blockAdult are bare cases', async () => {
    const { vendorId, token, device } = await connectPhone();
    const policies: [string, string[], IosOutput<'ConnectedRules'>['webPolicy']][] = [
      ['blockAdultAnd', ['roblox.com'], { case: 'blockAdultAnd', _0: ['roblox.com'] }],
      ['blockAdult', [], { case: 'blockAdult' }],
      ['allowAll', [], { case: 'allowAll' }],
    ];
    for (const [webPolicy, webPolicyDomains, expected] of policies) {
      await parent('UpdateIOSDevice', {
        deviceId: lower(device.deviceId),
        enabledBlockGroups: [],
        webPolicy,
        webPolicyDomains,
      });
      const output = await ios('ConnectedRules', deviceMetadata(vendorId), token);
      expect(output.webPolicy).toEqual(expected);
    }
  });

  test('an unknown token is refused, not 200', async () => {
    const answer = await iosSend('ConnectedRules', deviceMetadata(upper(newToken())), newToken());
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});

describe('filter suspension: CreateSuspendFilterRequest and PollFilterSuspensionDecision', () => {
  test('{"pending":{}} until the parent decides, then {"accepted":{"duration":…}}', async () => {
    const { token } = await connectPhone();
    const id = await ios(
      'CreateSuspendFilterRequest',
      { duration: 600, comment: 'homework video' },
      token,
    );
    expect(id).toMatch(/^[0-9A-F-]{36}$/);
    expect(await ios('PollFilterSuspensionDecision', id, token)).toEqual({ case: 'pending' });

    await parent('DecideFilterSuspensionRequest', {
      id: lower(id),
      decision: { case: 'accepted', durationInSeconds: 1200 },
    });
    expect(await ios('PollFilterSuspensionDecision', id, token)).toEqual({
      case: 'accepted',
      duration: 1200,
    });
  });

  test('accepted with a comment; denied with and without one', async () => {
    const { token } = await connectPhone();
    // a device's next request while one is pending is answered with it, so each is decided first
    const accepted = await ios('CreateSuspendFilterRequest', { duration: 300 }, token);
    await parent('DecideFilterSuspensionRequest', {
      id: lower(accepted),
      decision: { case: 'accepted', durationInSeconds: 300 },
      responseComment: 'ok, 5 minutes',
    });
    const quiet = await ios('CreateSuspendFilterRequest', { duration: 300 }, token);
    await parent('DecideFilterSuspensionRequest', {
      id: lower(quiet),
      decision: { case: 'rejected' },
    });
    const explained = await ios('CreateSuspendFilterRequest', { duration: 300 }, token);
    await parent('DecideFilterSuspensionRequest', {
      id: lower(explained),
      decision: { case: 'rejected' },
      responseComment: 'not on a school night',
    });
    expect(await ios('PollFilterSuspensionDecision', accepted, token)).toEqual({
      case: 'accepted',
      duration: 300,
      parentComment: 'ok, 5 minutes',
    });
    expect(await ios('PollFilterSuspensionDecision', quiet, token)).toEqual({ case: 'denied' });
    expect(await ios('PollFilterSuspensionDecision', explained, token)).toEqual({
      case: 'denied',
      parentComment: 'not on a school night',
    });
  });

  test('an unknown request id is {"notFound":{}}', async () => {
    const { token } = await connectPhone();
    expect(await ios('PollFilterSuspensionDecision', upper(newToken()), token)).toEqual({
      case: 'notFound',
    });
  });
});

describe('ScreenshotUploadUrl', () => {
  test('createdAt as a reference-date number; an absolute upload URL', async () => {
    const { token } = await connectPhone();
    const output = await ios(
      'ScreenshotUploadUrl',
      { width: 1179, height: 2556, createdAt: phoneDate(-30_000) },
      token,
    );
    expect(new URL(output.uploadUrl).protocol).toMatch(/^https?:$/);
  });

  test.each([
    ['a whole second', 0],
    ['a phone clock’s fraction', 0.123_456],
    ['a fraction close to the next second', 0.999_9],
  ])('a date number with %s is never refused with 400', async (_what, fraction) => {
    const { token } = await connectPhone();
    const whole = Math.floor(server.clock.now().getTime() / 1000) - 30;
    const answer = await iosSend(
      'ScreenshotUploadUrl',
      { width: 100, height: 200, createdAt: new Date((whole + fraction) * 1000) },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('block rules for the filter (unauthenticated)', () => {
  test('BlockRules_v2: the group rules as BlockRule.Legacy; disabling groups removes theirs', async () => {
    const vendorId = upper(newToken());
    const all = await ios('BlockRules_v2', {
      disabledGroups: [],
      vendorId,
      version: IOS_APP_VERSION,
    });
    expect(all.length).toBeGreaterThan(0);
    for (const rule of all) expect(legacyCases(rule).length).toBeGreaterThan(0);

    const none = await ios('BlockRules_v2', {
      disabledGroups: [...BlockGroupValues],
      vendorId,
      version: IOS_APP_VERSION,
    });
    expect(none.length).toBeLessThan(all.length);

    const withoutGifs = await ios('BlockRules_v2', {
      disabledGroups: ['gifs'],
      vendorId,
      version: IOS_APP_VERSION,
    });
    expect(withoutGifs.length).toBeLessThanOrEqual(all.length);
  });

  test('DefaultBlockRules: every group’s rules, with or without a vendor id', async () => {
    const withVendor = await ios('DefaultBlockRules', {
      vendorId: upper(newToken()),
      version: IOS_APP_VERSION,
    });
    const without = await ios('DefaultBlockRules', { version: IOS_APP_VERSION });
    expect(withVendor.length).toBeGreaterThan(0);
    expect(without).toHaveLength(withVendor.length);
  });

  test('BlockRules (deprecated, apps 1.0 – 1.1): legacy rules, every input key optional', async () => {
    const old = await ios('BlockRules', { vendorId: upper(newToken()), version: '1.1.0' });
    expect(old.length).toBeGreaterThan(0);
    const bare = await ios('BlockRules', {});
    expect(bare.length).toBeGreaterThan(0);
  });
});

describe('other unauthenticated operations', () => {
  test('LogIOSEvent answers {} (Infallible)', async () => {
    expect(
      await ios('LogIOSEvent', {
        eventId: '8d35f043',
        kind: 'ios',
        deviceType: 'iPhone',
        iOSVersion: '18.1',
        vendorId: upper(newToken()),
        detail: '[onboarding]: first launch',
      }),
    ).toEqual({});
    expect(
      await ios('LogIOSEvent', {
        eventId: '00ec3909',
        kind: 'ios',
        deviceType: 'iPad',
        iOSVersion: '17.5',
      }),
    ).toEqual({});
  });

  test('RecoveryDirective: no directive for an ordinary device', async () => {
    expect(
      await ios('RecoveryDirective', {
        vendorId: upper(newToken()),
        deviceType: 'iPhone',
        iOSVersion: '18.1',
        locale: 'US',
        version: IOS_APP_VERSION,
      }),
    ).toEqual({});
  });

  test('ConnectAccountFeatureFlag: no body; a Bool and optional texts', async () => {
    const flag = await ios('ConnectAccountFeatureFlag', undefined);
    expect(typeof flag.isEnabled).toBe('boolean');
  });
});
