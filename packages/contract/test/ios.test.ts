import { describe, expect, it } from 'vitest';
import {
  IOS_APP_BLOCK_GROUPS,
  type IosAppInput,
  type IosAppOperation,
  type IosAppOutput,
  iosApp,
} from '../src/ios.ts';
import { ids } from './fixtures.ts';

// The iOS app's wire (app 1.5.0): bodies as its JSONEncoder writes them (dates in seconds since
// 2001, UUIDs upper case), answers as its JSONDecoder reads them (synthesized enum cases).

type Examples = {
  [Op in IosAppOperation]: { input: IosAppInput<Op>; output: IosAppOutput<Op> };
};

const upper = (id: string) => id.toUpperCase();

const device = {
  vendorId: upper(ids.child),
  deviceType: 'iPad',
  appVersion: '1.5.0',
  iosVersion: '18.1',
};

const legacyRules: IosAppOutput<'DefaultBlockRules'> = [
  { bundleIdContains: { _0: 'HashtagImagesExtension' } },
  { hostnameEndsWith: { _0: '.giphy.com' } },
  {
    both: {
      _0: { bundleIdContains: { _0: 'com.apple.MobileSMS' } },
      _1: { targetContains: { _0: 'mzstatic.com' } },
    },
  },
  {
    unless: {
      rule: { flowTypeIs: { _0: { browser: {} } } },
      negatedBy: [{ hostnameEquals: { _0: 'appleid.apple.com' } }],
    },
  },
];

const examples: Examples = {
  BlockRules: { input: {}, output: legacyRules },
  BlockRules_v2: {
    input: {
      disabledGroups: ['spotifyImages', 'gifs'],
      vendorId: upper(ids.ios),
      version: '1.5.0',
    },
    output: legacyRules,
  },
  ConnectAccountFeatureFlag: { input: undefined, output: { isEnabled: false } },
  ConnectDevice: {
    input: { verificationCode: 482913, ...device },
    output: { childId: ids.child, token: ids.token, deviceId: ids.app, childName: 'Lily' },
  },
  ConnectedRules: {
    input: device,
    output: {
      blockRules: [
        {
          case: 'unless',
          rule: { case: 'bundleIdContains', value: 'com.apple.mobilesafari' },
          negatedBy: [{ case: 'targetContains', value: 'khanacademy.org' }],
        },
        {
          case: 'both',
          a: { case: 'bundleIdContains', value: 'com.apple' },
          b: { case: 'flowTypeIs', value: { browser: {} } },
        },
      ],
      webPolicy: { blockAllExcept: { _0: ['khanacademy.org'] } },
    },
  },
  CreateSuspendFilterRequest: {
    input: { duration: 600, comment: 'homework video' },
    output: ids.suspension,
  },
  DefaultBlockRules: { input: { vendorId: upper(ids.ios), version: '1.5.0' }, output: legacyRules },
  LogIOSEvent: {
    input: {
      eventId: '8d35f043',
      kind: 'ios',
      deviceType: 'iPhone',
      iOSVersion: '18.0.1',
      vendorId: upper(ids.ios),
      detail: '[onboarding] first launch',
    },
    output: {},
  },
  PollFilterSuspensionDecision: {
    input: upper(ids.suspension),
    output: { accepted: { duration: 1200, parentComment: 'ok' } },
  },
  RecoveryDirective: {
    input: { vendorId: upper(ids.ios), deviceType: 'iPhone', iOSVersion: '18.1', locale: 'US' },
    output: { directive: 'retry' },
  },
  ScreenshotUploadUrl: {
    input: { width: 1170, height: 2532, createdAt: 786_000_000.25 },
    output: { uploadUrl: 'http://127.0.0.1/u' },
  },
};

describe('iOS device API (the app’s shapes)', () => {
  it.each(Object.keys(iosApp) as IosAppOperation[])('%s accepts its example', (op) => {
    const def = iosApp[op];
    const example = examples[op];
    if (def.input === null) expect(example.input).toBeUndefined();
    else expect(def.input.safeParse(example.input).success).toBe(true);
    const output = def.output.safeParse(example.output);
    expect(output.success, JSON.stringify(output.error?.issues)).toBe(true);
  });

  it.each([
    ['ConnectDevice', { verificationCode: '482913', ...device }],
    ['ConnectDevice', { verificationCode: 482913, ...device, vendorId: 'not-a-uuid' }],
    ['ConnectedRules', { vendorId: ids.child }],
    ['CreateSuspendFilterRequest', { duration: 0 }],
    ['CreateSuspendFilterRequest', { duration: 1.5 }],
    ['CreateSuspendFilterRequest', { duration: '600' }],
    ['PollFilterSuspensionDecision', { id: ids.suspension }],
    // a Date is a number from the app, never a string; and it is required
    ['ScreenshotUploadUrl', { width: 10, height: 10, createdAt: '2025-01-01T00:00:00Z' }],
    ['ScreenshotUploadUrl', { width: 10, height: 10 }],
    ['BlockRules_v2', { disabledGroups: [], vendorId: ids.ios }],
    ['DefaultBlockRules', { vendorId: ids.ios }],
    ['LogIOSEvent', { eventId: 'x', kind: 'ios', deviceType: 'iPad' }],
    ['LogIOSEvent', { eventId: 'x'.repeat(65), kind: 'ios', deviceType: 'iPad', iOSVersion: '18' }],
    [
      'LogIOSEvent',
      {
        eventId: 'x',
        kind: 'ios',
        deviceType: 'iPad',
        iOSVersion: '18',
        detail: 'd'.repeat(16_385),
      },
    ],
    ['RecoveryDirective', { vendorId: ids.ios, deviceType: 'iPad' }],
  ] as const)('%s refuses %j', (op, input) => {
    const schema = iosApp[op].input;
    expect(schema?.safeParse(input).success).toBe(false);
  });

  it('a reference-date number parses to the instant it names', () => {
    const parsed = iosApp.ScreenshotUploadUrl.input.parse({
      width: 10,
      height: 20,
      createdAt: 0,
    });
    expect(parsed.createdAt).toBe('2001-01-01T00:00:00.000Z');
    const later = iosApp.ScreenshotUploadUrl.input.parse({ width: 1, height: 1, createdAt: 60.5 });
    expect(later.createdAt).toBe('2001-01-01T00:01:00.500Z');
  });

  it('upper-case UUIDs and nil optionals (absent or null) are accepted', () => {
    const parsed = iosApp.LogIOSEvent.input.parse({
      eventId: 'adced334',
      kind: 'ios',
      deviceType: 'iPad',
      iOSVersion: '17.5',
      vendorId: null,
    });
    expect(parsed).toEqual({
      eventId: 'adced334',
      kind: 'ios',
      deviceType: 'iPad',
      iOSVersion: '17.5',
    });
    expect(iosApp.PollFilterSuspensionDecision.input.parse(upper(ids.suspension))).toBe(
      ids.suspension,
    );
    expect(iosApp.BlockRules.input.parse({ vendorId: null, version: null })).toEqual({});
  });

  it('decisions are synthesized cases: one key, the case name', () => {
    const decision = iosApp.PollFilterSuspensionDecision.output;
    for (const ok of [
      { pending: {} },
      { denied: {} },
      { denied: { parentComment: 'no' } },
      { accepted: { duration: 300 } },
      { notFound: {} },
    ]) {
      expect(decision.safeParse(ok).success, JSON.stringify(ok)).toBe(true);
    }
    for (const bad of [
      { case: 'pending' },
      { accepted: {} },
      { accepted: { duration: '300' } },
      { pending: {}, notFound: {} },
      { maybe: {} },
      'pending',
    ]) {
      expect(decision.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('web policies: the domain list is the unlabelled _0', () => {
    const policy = iosApp.ConnectedRules.output.shape.webPolicy;
    for (const ok of [
      { blockAll: {} },
      { allowAll: {} },
      { blockAdult: {} },
      { blockAdultAnd: { _0: ['a.com'] } },
      { blockAllExcept: { _0: [] } },
    ]) {
      expect(policy.safeParse(ok).success, JSON.stringify(ok)).toBe(true);
    }
    for (const bad of [
      { case: 'blockAll' },
      { blockAdultAnd: {} },
      { blockAllExcept: { domains: ['a.com'] } },
      { blockSome: {} },
    ]) {
      expect(policy.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('ConnectedRules rules keep {case, value}, but flowTypeIs carries a synthesized FlowType', () => {
    const rules = iosApp.ConnectedRules.output.shape.blockRules;
    expect(rules.safeParse([{ case: 'flowTypeIs', value: { socket: {} } }]).success).toBe(true);
    expect(rules.safeParse([{ case: 'flowTypeIs', value: 'browser' }]).success).toBe(false);
    expect(rules.safeParse([{ bundleIdContains: { _0: 'x' } }]).success).toBe(false);
  });

  it('legacy rules are fully synthesized, nested ones too', () => {
    const rules = iosApp.BlockRules_v2.output;
    expect(rules.safeParse([{ flowTypeIs: { _0: { browser: {} } } }]).success).toBe(true);
    for (const bad of [
      [{ case: 'hostnameEquals', value: 'x.com' }],
      [{ hostnameEquals: 'x.com' }],
      [{ flowTypeIs: { _0: 'browser' } }],
      [{ both: { a: { urlContains: { _0: 'a' } }, b: { urlContains: { _0: 'b' } } } }],
      [{ both: { _0: { urlContains: { _0: 'a' } }, _1: { case: 'urlContains', value: 'b' } } }],
    ]) {
      expect(rules.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('LogIOSEvent answers Infallible, an empty object', () => {
    expect(iosApp.LogIOSEvent.output.safeParse({}).success).toBe(true);
    expect(iosApp.LogIOSEvent.output.safeParse({ success: true }).success).toBe(false);
  });

  it('the app’s nine block groups', () => {
    expect(IOS_APP_BLOCK_GROUPS).toHaveLength(9);
    expect(IOS_APP_BLOCK_GROUPS).toContain('whatsAppFeatures');
  });

  it('only the four operations of the app’s authenticated route need the device token', () => {
    const authed = Object.entries(iosApp)
      .filter(([, def]) => def.auth === 'iosDevice')
      .map(([op]) => op)
      .sort();
    expect(authed).toEqual([
      'ConnectedRules',
      'CreateSuspendFilterRequest',
      'PollFilterSuspensionDecision',
      'ScreenshotUploadUrl',
    ]);
    for (const def of Object.values(iosApp)) expect(['none', 'iosDevice']).toContain(def.auth);
    expect(iosApp.ConnectAccountFeatureFlag.input).toBeNull();
  });
});
