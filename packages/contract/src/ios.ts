import { z } from 'zod';
import { LIMITS } from './constants.ts';
import type { InputOf, OperationDef, OutputOf, ParsedInputOf } from './operation.ts';
import { inputObject, optionalInput, Uuid } from './shared.ts';
import { SwiftDateInput, swiftBareCase, swiftCase } from './swift.ts';

// The iOS device API: `POST /pairql/ios-app/{Op}`, `X-DeviceToken` on the authenticated operations
// (server-behaviour §5). These shapes are the iOS app's own (app 1.5.0, swift.ts explains the value
// encodings): what its `JSONEncoder` sends, and what its `JSONDecoder` reads back. The dashboard
// keeps its own shapes of the same data (shared.ts `BlockRule`, `WebPolicy`); the server converts
// at the edge.

const iosText = z.string().max(64);

/** The app's block groups, by their raw names, in the app's order. */
export const IOS_APP_BLOCK_GROUPS = [
  'gifs',
  'appleMapsImages',
  'aiFeatures',
  'appStoreImages',
  'spotlightSearches',
  'ads',
  'whatsAppFeatures',
  'appleWebsite',
  'spotifyImages',
] as const;
export type IosAppBlockGroup = (typeof IOS_APP_BLOCK_GROUPS)[number];

/** The largest `detail` of an app event; the server keeps at most its first 2,000 characters. */
export const IOS_EVENT_DETAIL_MAX = 16_384;

const DeviceMetadata = {
  vendorId: Uuid,
  deviceType: iosText,
  appVersion: iosText,
  iosVersion: iosText,
};

type Empty = Record<string, never>;

/** `FlowType`, synthesized: `{"browser": {}}` or `{"socket": {}}`. */
export type IosFlowType = { browser: Empty } | { socket: Empty };
export const IosFlowType: z.ZodType<IosFlowType, IosFlowType> = z.union([
  swiftBareCase('browser'),
  swiftBareCase('socket'),
]);

/**
 * `BlockRule` of ConnectedRules: its own `{case, value}` coding (`both` has `a` and `b`, `unless`
 * has `rule` and `negatedBy`), except that the value of `flowTypeIs` is a synthesized `FlowType`.
 */
export type IosBlockRule =
  | { case: 'bundleIdContains'; value: string }
  | { case: 'urlContains'; value: string }
  | { case: 'hostnameContains'; value: string }
  | { case: 'hostnameEquals'; value: string }
  | { case: 'hostnameEndsWith'; value: string }
  | { case: 'targetContains'; value: string }
  | { case: 'flowTypeIs'; value: IosFlowType }
  | { case: 'both'; a: IosBlockRule; b: IosBlockRule }
  | { case: 'unless'; rule: IosBlockRule; negatedBy: IosBlockRule[] };

export const IosBlockRule: z.ZodType<IosBlockRule, IosBlockRule> = z.lazy(() =>
  z.discriminatedUnion('case', [
    z.object({ case: z.literal('bundleIdContains'), value: z.string() }),
    z.object({ case: z.literal('urlContains'), value: z.string() }),
    z.object({ case: z.literal('hostnameContains'), value: z.string() }),
    z.object({ case: z.literal('hostnameEquals'), value: z.string() }),
    z.object({ case: z.literal('hostnameEndsWith'), value: z.string() }),
    z.object({ case: z.literal('targetContains'), value: z.string() }),
    z.object({ case: z.literal('flowTypeIs'), value: IosFlowType }),
    z.object({ case: z.literal('both'), a: IosBlockRule, b: IosBlockRule }),
    z.object({ case: z.literal('unless'), rule: IosBlockRule, negatedBy: z.array(IosBlockRule) }),
  ]),
);

/**
 * `BlockRule.Legacy` (BlockRules, BlockRules_v2, DefaultBlockRules), fully synthesized:
 * `{"hostnameEquals": {"_0": "x.com"}}`, `{"both": {"_0": …, "_1": …}}`,
 * `{"unless": {"rule": …, "negatedBy": […]}}`, `{"flowTypeIs": {"_0": {"browser": {}}}}`.
 */
export type IosLegacyBlockRule =
  | { bundleIdContains: { _0: string } }
  | { urlContains: { _0: string } }
  | { hostnameContains: { _0: string } }
  | { hostnameEquals: { _0: string } }
  | { hostnameEndsWith: { _0: string } }
  | { targetContains: { _0: string } }
  | { flowTypeIs: { _0: IosFlowType } }
  | { both: { _0: IosLegacyBlockRule; _1: IosLegacyBlockRule } }
  | { unless: { rule: IosLegacyBlockRule; negatedBy: IosLegacyBlockRule[] } };

export const IosLegacyBlockRule: z.ZodType<IosLegacyBlockRule, IosLegacyBlockRule> = z.lazy(() =>
  z.union([
    swiftCase('bundleIdContains', { _0: z.string() }),
    swiftCase('urlContains', { _0: z.string() }),
    swiftCase('hostnameContains', { _0: z.string() }),
    swiftCase('hostnameEquals', { _0: z.string() }),
    swiftCase('hostnameEndsWith', { _0: z.string() }),
    swiftCase('targetContains', { _0: z.string() }),
    swiftCase('flowTypeIs', { _0: IosFlowType }),
    swiftCase('both', { _0: IosLegacyBlockRule, _1: IosLegacyBlockRule }),
    swiftCase('unless', { rule: IosLegacyBlockRule, negatedBy: z.array(IosLegacyBlockRule) }),
  ]),
);

/** `WebContentFilterPolicy`, synthesized; the domain lists are the unlabelled `_0`. */
export type IosWebPolicy =
  | { allowAll: Empty }
  | { blockAdult: Empty }
  | { blockAdultAnd: { _0: string[] } }
  | { blockAllExcept: { _0: string[] } }
  | { blockAll: Empty };

export const IosWebPolicy: z.ZodType<IosWebPolicy, IosWebPolicy> = z.union([
  swiftBareCase('allowAll'),
  swiftBareCase('blockAdult'),
  swiftCase('blockAdultAnd', { _0: z.array(z.string()) }),
  swiftCase('blockAllExcept', { _0: z.array(z.string()) }),
  swiftBareCase('blockAll'),
]);

/** `PollFilterSuspensionDecision.Output`, synthesized; a nil comment is left out. */
export type IosSuspensionDecision =
  | { pending: Empty }
  | { denied: { parentComment?: string } }
  | { accepted: { duration: number; parentComment?: string } }
  | { notFound: Empty };

export const IosSuspensionDecision: z.ZodType<IosSuspensionDecision, IosSuspensionDecision> =
  z.union([
    swiftBareCase('pending'),
    swiftCase('denied', { parentComment: z.string().optional() }),
    swiftCase('accepted', {
      /** seconds (`Seconds<Int>`) */
      duration: z.number().int(),
      parentComment: z.string().optional(),
    }),
    swiftBareCase('notFound'),
  ]);

/** PairQL's `Infallible`: a struct without properties, `{}`. */
export const IosInfallible = z.object({}).strict();

export const iosApp = {
  // ----- unauthenticated (`UnauthedRoute`)

  /** Deprecated (apps 1.0 – 1.1): the default rules. */
  BlockRules: {
    auth: 'none',
    input: inputObject({ vendorId: optionalInput(Uuid), version: optionalInput(iosText) }),
    output: z.array(IosLegacyBlockRule),
  },
  /**
   * A device without a parent account: the rules of its block groups except the ones it turned
   * off, plus its own rules when its vendor id is a connected device's. A group name this server
   * does not know is ignored.
   */
  BlockRules_v2: {
    auth: 'none',
    input: inputObject({
      disabledGroups: z.array(iosText).max(100),
      vendorId: Uuid,
      version: iosText,
    }),
    output: z.array(IosLegacyBlockRule),
  },
  ConnectAccountFeatureFlag: {
    auth: 'none',
    input: null,
    output: z.object({
      isEnabled: z.boolean(),
      offerScreenText: z.string().optional(),
      offerScreenConnectBtnText: z.string().optional(),
      offerScreenSkipBtnText: z.string().optional(),
      explainScreenText: z.string().optional(),
      connectAccountSheetInfoBlurb: z.string().optional(),
    }),
  },
  ConnectDevice: {
    auth: 'none',
    input: inputObject({ verificationCode: z.number().int(), ...DeviceMetadata }),
    output: z.object({ childId: Uuid, token: Uuid, deviceId: Uuid, childName: z.string() }),
  },
  /** The rules of every block group: what a device starts with before it chooses. */
  DefaultBlockRules: {
    auth: 'none',
    input: inputObject({ vendorId: optionalInput(Uuid), version: iosText }),
    output: z.array(IosLegacyBlockRule),
  },
  LogIOSEvent: {
    auth: 'none',
    input: inputObject({
      eventId: iosText,
      kind: iosText,
      /** "iPhone" | "iPad" */
      deviceType: iosText,
      iOSVersion: iosText,
      vendorId: optionalInput(Uuid),
      detail: optionalInput(z.string().max(IOS_EVENT_DETAIL_MAX)),
    }),
    output: IosInfallible,
  },
  RecoveryDirective: {
    auth: 'none',
    input: inputObject({
      vendorId: optionalInput(Uuid),
      deviceType: iosText,
      iOSVersion: iosText,
      locale: optionalInput(iosText),
      version: optionalInput(iosText),
    }),
    /** `"retry"`, or no directive */
    output: z.object({ directive: z.string().optional() }),
  },

  // ----- authenticated (`AuthedRoute`, `X-DeviceToken`)

  ConnectedRules: {
    auth: 'iosDevice',
    input: inputObject(DeviceMetadata),
    output: z.object({ blockRules: z.array(IosBlockRule), webPolicy: IosWebPolicy }),
  },
  CreateSuspendFilterRequest: {
    auth: 'iosDevice',
    input: inputObject({
      /** seconds (`Seconds<Int>`) */
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
      /** capture time, seconds since 2001-01-01 */
      createdAt: SwiftDateInput,
    }),
    /** a signed PUT URL (image/jpeg) */
    output: z.object({ uploadUrl: z.url() }),
  },
} as const satisfies Record<string, OperationDef>;

export type IosAppOperation = keyof typeof iosApp;
export type IosAppInput<Op extends IosAppOperation> = InputOf<(typeof iosApp)[Op]>;
export type IosAppParsedInput<Op extends IosAppOperation> = ParsedInputOf<(typeof iosApp)[Op]>;
export type IosAppOutput<Op extends IosAppOperation> = OutputOf<(typeof iosApp)[Op]>;

export const iosAppOperationNames = Object.keys(iosApp) as IosAppOperation[];
