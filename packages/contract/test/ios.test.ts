import { describe, expect, it } from 'vitest';
import { type IosAppInput, type IosAppOperation, type IosAppOutput, iosApp } from '../src/ios.ts';
import { ids } from './fixtures.ts';

type Examples = {
  [Op in IosAppOperation]: { input: IosAppInput<Op>; output: IosAppOutput<Op> };
};

const device = {
  vendorId: ids.child,
  deviceType: 'iPad',
  appVersion: '1.4.0',
  iosVersion: '17.5',
};

const examples: Examples = {
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
      ],
      webPolicy: { case: 'blockAllExcept', domains: ['khanacademy.org'] },
    },
  },
  CreateSuspendFilterRequest: {
    input: { duration: 600, comment: 'homework video' },
    output: ids.suspension,
  },
  PollFilterSuspensionDecision: {
    input: ids.suspension,
    output: { case: 'accepted', duration: 1200, parentComment: 'ok' },
  },
  ScreenshotUploadUrl: {
    input: { width: 1170, height: 2532 },
    output: { uploadUrl: 'http://127.0.0.1/u', webUrl: 'http://127.0.0.1/w' },
  },
};

describe('iOS device API (fixed shapes)', () => {
  it.each(Object.keys(iosApp) as IosAppOperation[])('%s accepts its example', (op) => {
    const def = iosApp[op];
    expect(def.input.safeParse(examples[op].input).success).toBe(true);
    expect(def.output.safeParse(examples[op].output).success).toBe(true);
  });

  it.each([
    ['ConnectDevice', { verificationCode: '482913', ...device }],
    ['ConnectDevice', { verificationCode: 482913, ...device, vendorId: 'not-a-uuid' }],
    ['ConnectedRules', { vendorId: ids.child }],
    ['CreateSuspendFilterRequest', { duration: 0 }],
    ['CreateSuspendFilterRequest', { duration: 1.5 }],
    ['PollFilterSuspensionDecision', { id: ids.suspension }],
  ] as const)('%s refuses %j', (op, input) => {
    expect(iosApp[op].input.safeParse(input).success).toBe(false);
  });

  it('decisions are tagged by case', () => {
    const decision = iosApp.PollFilterSuspensionDecision.output;
    expect(decision.safeParse({ case: 'pending' }).success).toBe(true);
    expect(decision.safeParse({ case: 'denied' }).success).toBe(true);
    expect(decision.safeParse({ case: 'notFound' }).success).toBe(true);
    expect(decision.safeParse({ case: 'accepted' }).success).toBe(false);
    expect(decision.safeParse({ case: 'maybe' }).success).toBe(false);
  });

  it('every operation but ConnectDevice needs the device token', () => {
    for (const [op, def] of Object.entries(iosApp)) {
      expect(def.auth).toBe(op === 'ConnectDevice' ? 'none' : 'iosDevice');
    }
  });
});
