import { z } from 'zod';
import { LIMITS } from './constants.ts';
import type { InputOf, OperationDef, OutputOf, ParsedInputOf } from './operation.ts';
import { BlockRule, IsoDate, inputObject, optionalInput, Uuid, WebPolicy } from './shared.ts';

// The iOS device API: `POST /pairql/ios-app/{Op}` with `X-DeviceToken` (server-behaviour §5).
// These shapes are fixed: the iOS app speaks them.

const iosText = z.string().max(64);

const DeviceMetadata = {
  vendorId: Uuid,
  deviceType: iosText,
  appVersion: iosText,
  iosVersion: iosText,
};

export const IosSuspensionDecision = z.discriminatedUnion('case', [
  z.object({ case: z.literal('pending') }),
  z.object({ case: z.literal('denied'), parentComment: z.string().optional() }),
  z.object({
    case: z.literal('accepted'),
    /** seconds */
    duration: z.number(),
    parentComment: z.string().optional(),
  }),
  z.object({ case: z.literal('notFound') }),
]);
export type IosSuspensionDecision = z.infer<typeof IosSuspensionDecision>;

export const iosApp = {
  ConnectDevice: {
    auth: 'none',
    input: inputObject({ verificationCode: z.number().int(), ...DeviceMetadata }),
    output: z.object({ childId: Uuid, token: Uuid, deviceId: Uuid, childName: z.string() }),
  },
  ConnectedRules: {
    auth: 'iosDevice',
    input: inputObject(DeviceMetadata),
    output: z.object({
      blockRules: z.array(BlockRule),
      webPolicy: z.object({ case: WebPolicy, domains: z.array(z.string()).optional() }),
    }),
  },
  CreateSuspendFilterRequest: {
    auth: 'iosDevice',
    input: inputObject({
      /** seconds */
      duration: z.number().int().positive(),
      comment: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: Uuid,
  },
  PollFilterSuspensionDecision: {
    auth: 'iosDevice',
    input: Uuid,
    output: IosSuspensionDecision,
  },
  ScreenshotUploadUrl: {
    auth: 'iosDevice',
    input: inputObject({
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      createdAt: optionalInput(IsoDate),
    }),
    output: z.object({ uploadUrl: z.string(), webUrl: z.string() }),
  },
} as const satisfies Record<string, OperationDef>;

export type IosAppOperation = keyof typeof iosApp;
export type IosAppInput<Op extends IosAppOperation> = InputOf<(typeof iosApp)[Op]>;
export type IosAppParsedInput<Op extends IosAppOperation> = ParsedInputOf<(typeof iosApp)[Op]>;
export type IosAppOutput<Op extends IosAppOperation> = OutputOf<(typeof iosApp)[Op]>;

export const iosAppOperationNames = Object.keys(iosApp) as IosAppOperation[];
