import { z } from 'zod';
import { LIMITS } from './constants.ts';
import type { InputOf, OperationDef, OutputOf, ParsedInputOf } from './operation.ts';
import {
  IsoDate,
  inputArray,
  inputObject,
  optionalInput,
  PlainTimeWindow,
  RuleSchedule,
  SharedKey,
  SuccessOutput,
  Uuid,
} from './shared.ts';

// Keyward for Chrome (issue 22): the device API of Keyward's own browser filter, a Manifest V3
// extension for Chromium browsers. `POST /pairql/browser-filter/{Op}` with `X-BrowserToken` on the
// authenticated operations, and the push channel at `GET /browser-filter/channel` (a WebSocket
// whose first frame is `{"type":"hello","token":…}`, since a browser's WebSocket cannot set
// headers). Plain JSON: ISO dates, no Swift encodings. It is Keyward's own wire, independent of the
// Mac app's (device.ts), so each can change without the other; on the server both reach the same
// computers, keys, requests and activity (a browser is a computer of kind `browser`).

/** Where the extension runs. */
export const BROWSER_PLATFORMS = ['chromeOS', 'windows', 'linux', 'macOS', 'other'] as const;
export const BrowserPlatform = z.enum(BROWSER_PLATFORMS);
export type BrowserPlatform = z.infer<typeof BrowserPlatform>;

/** 'Chrome', 'Edge', 'Brave', 'Chromium'… as the extension reads it from the user agent. */
const browserText = z.string().trim().min(1).max(64);
const version = z.string().regex(/^\d+(\.\d+){0,3}$/, 'Invalid version');

export const BrowserKey = z.object({
  id: Uuid,
  key: SharedKey,
  /** after this instant the key no longer unlocks anything */
  expiration: IsoDate.optional(),
});
export type BrowserKey = z.infer<typeof BrowserKey>;

export const BrowserKeychain = z.object({
  id: Uuid,
  name: z.string(),
  /** in the child's local time (the browser's time zone); absent: always in force */
  schedule: RuleSchedule.optional(),
  keys: z.array(BrowserKey),
});
export type BrowserKeychain = z.infer<typeof BrowserKeychain>;

export const BrowserSuspension = z.object({
  /** the suspension ends at this instant, whether or not the extension can reach the server */
  endsAt: IsoDate,
  /** screenshots every N seconds during the suspension (the parent's extra monitoring) */
  screenshotsEverySeconds: z.number().int().positive().optional(),
  /** typed lines recorded during the suspension */
  keylogging: z.boolean(),
});
export type BrowserSuspension = z.infer<typeof BrowserSuspension>;

export const BrowserMonitoring = z.object({
  screenshots: z.union([
    z.object({ enabled: z.literal(false) }),
    z.object({
      enabled: z.literal(true),
      everySeconds: z.number().int().positive(),
      /** the image's width in pixels (the child's screenshot size setting) */
      width: z.number().int().positive(),
    }),
  ]),
  keylogging: z.boolean(),
});
export type BrowserMonitoring = z.infer<typeof BrowserMonitoring>;

/** Issue 34: today's screen time as the extension enforces it. */
export const BrowserScreenTime = z.object({
  /** today's allowance with today's grants; null: no limit today */
  allowedMinutes: z.number().nullable(),
  /** minutes used today on all the child's browsers (each minute once) */
  usedMinutes: z.number(),
  /** null: no limit today */
  remainingMinutes: z.number().nullable(),
  /** local midnight in the family's time zone: the allowance starts again */
  resetsAt: IsoDate,
  /** the keychains whose sites never count ("doesn't use up time") */
  exemptKeychainIds: z.array(Uuid),
});
export type BrowserScreenTime = z.infer<typeof BrowserScreenTime>;

/** Issue 34: the parent paused the internet; `until` absent: until the parent resumes. */
export const BrowserPause = z.object({ until: IsoDate.optional() });
export type BrowserPause = z.infer<typeof BrowserPause>;

/** Issue 34: one minute (its start, a whole minute) a counted site was visible, and the site. */
export const BrowserUsedMinute = z.object({
  minute: IsoDate,
  site: z.string().min(1).max(253),
});
export type BrowserUsedMinute = z.infer<typeof BrowserUsedMinute>;
/** a day of minutes at most per check-in; the extension sends what it kept offline in turns */
export const MAX_USED_MINUTES_PER_CHECK_IN = 24 * 60;

export const BrowserMoreTimeRequest = z.object({
  id: Uuid,
  status: z.enum(['pending', 'accepted', 'rejected']),
  requestedMinutes: z.number().int().positive(),
  /** when accepted: the minutes added to today's allowance */
  grantedMinutes: z.number().int().positive().optional(),
  responseComment: z.string().optional(),
});
export type BrowserMoreTimeRequest = z.infer<typeof BrowserMoreTimeRequest>;

export const BrowserCheckInOutput = z.object({
  childName: z.string(),
  deviceId: Uuid,
  /** the server's clock, so the extension can tell when its own is far off */
  serverTime: IsoDate,
  keychains: z.array(BrowserKeychain),
  /** every day inside this window (the browser's local time) everything is blocked */
  downtime: PlainTimeWindow.optional(),
  /** a granted suspension still running */
  suspension: BrowserSuspension.optional(),
  monitoring: BrowserMonitoring,
  /** seconds between check-ins when the push channel is down */
  checkInEverySeconds: z.number().int().positive(),
  /** issue 34: today's allowance (absent: no limit on any day) */
  screenTime: BrowserScreenTime.optional(),
  /** issue 34: the parent paused the internet: everything is blocked */
  pause: BrowserPause.optional(),
});
export type BrowserCheckInOutput = z.infer<typeof BrowserCheckInOutput>;

export const BrowserRequestStatus = z.enum(['pending', 'accepted', 'rejected']);
export type BrowserRequestStatus = z.infer<typeof BrowserRequestStatus>;

export const BrowserUnlockRequest = z.object({
  id: Uuid,
  url: z.string(),
  status: BrowserRequestStatus,
  /** the parent's comment, when they gave one */
  responseComment: z.string().optional(),
  createdAt: IsoDate,
});
export type BrowserUnlockRequest = z.infer<typeof BrowserUnlockRequest>;

export const BrowserSuspensionRequest = z.object({
  id: Uuid,
  status: BrowserRequestStatus,
  /** what was asked for, in seconds */
  requestedSeconds: z.number().int().positive(),
  responseComment: z.string().optional(),
  /** when accepted: the suspension granted (its length may differ from the one asked for) */
  suspension: BrowserSuspension.optional(),
});
export type BrowserSuspensionRequest = z.infer<typeof BrowserSuspensionRequest>;

/** Tamper and health signals the extension reports; each becomes a security event. */
export const BROWSER_SECURITY_EVENTS = [
  'incognitoNotAllowed',
  'filterOfflineWhileInUse',
  'suspensionExpired',
  'clockChanged',
] as const;
export const BrowserSecurityEvent = z.enum(BROWSER_SECURITY_EVENTS);
export type BrowserSecurityEvent = z.infer<typeof BrowserSecurityEvent>;

export const browserFilter = {
  /** The parent's connection code (from "Connect a device" → Chrome browser) enrols the browser. */
  ConnectBrowser: {
    auth: 'none',
    input: inputObject({
      code: z.number().int().min(0).max(999_999),
      browser: browserText,
      browserVersion: version,
      platform: BrowserPlatform,
      extensionVersion: version,
      /** a name the child's family will recognise; the server makes one when absent */
      deviceName: optionalInput(z.string().trim().min(1).max(64)),
    }),
    output: z.object({
      token: Uuid,
      deviceId: Uuid,
      childId: Uuid,
      childName: z.string(),
      /** opened by the browser when the extension is removed (runtime.setUninstallURL) */
      uninstallUrl: z.url(),
    }),
  },
  CheckIn: {
    auth: 'browser',
    input: inputObject({
      extensionVersion: version,
      browserVersion: version,
      /** whether the extension may run in incognito windows (without it, incognito is unfiltered) */
      incognitoAllowed: z.boolean(),
      /** issue 34: minutes counted since the last check-in (kept while offline) */
      usedMinutes: optionalInput(z.array(BrowserUsedMinute).max(MAX_USED_MINUTES_PER_CHECK_IN)),
    }),
    output: BrowserCheckInOutput,
  },
  CreateUnlockRequests: {
    auth: 'browser',
    input: inputObject({
      /** the blocked page first, then sub-resources the child picked */
      urls: z
        .array(z.url({ protocol: /^https?$/ }).max(LIMITS.url))
        .min(1)
        .max(20),
      comment: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: z.array(BrowserUnlockRequest),
  },
  /** The live status of this browser's requests (the block page polls it when the channel is down). */
  GetUnlockRequests: {
    auth: 'browser',
    input: inputObject({ ids: z.array(Uuid).max(50) }),
    output: z.array(BrowserUnlockRequest),
  },
  CreateSuspensionRequest: {
    auth: 'browser',
    input: inputObject({
      seconds: z
        .number()
        .int()
        .min(60)
        .max(24 * 60 * 60),
      comment: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: BrowserSuspensionRequest,
  },
  GetSuspensionRequest: {
    auth: 'browser',
    input: inputObject({ id: Uuid }),
    output: BrowserSuspensionRequest,
  },
  /** Issue 34: "Ask for 15 / 30 / 60 more minutes" on the Time's up page. */
  CreateMoreTimeRequest: {
    auth: 'browser',
    input: inputObject({
      minutes: z.union([z.literal(15), z.literal(30), z.literal(60)]),
      comment: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: BrowserMoreTimeRequest,
  },
  GetMoreTimeRequest: {
    auth: 'browser',
    input: inputObject({ id: Uuid }),
    output: BrowserMoreTimeRequest,
  },
  /** A signed URL the extension PUTs one JPEG to (the same flow as the Mac's screenshots). */
  CreateScreenshotUpload: {
    auth: 'browser',
    input: inputObject({
      width: z.number().int().positive().max(8192),
      height: z.number().int().positive().max(8192),
      takenAt: IsoDate,
      filterSuspended: z.boolean(),
    }),
    output: z.object({ uploadUrl: z.url() }),
  },
  CreateTypedLines: {
    auth: 'browser',
    input: inputArray(
      inputObject({
        /** the site typed in, e.g. `docs.google.com`: shown as the app in activity review */
        site: z.string().min(1).max(LIMITS.event),
        line: z.string().min(1).max(LIMITS.keystrokeLine),
        typedAt: IsoDate,
        filterSuspended: z.boolean(),
      }),
    ),
    output: SuccessOutput,
  },
  LogSecurityEvent: {
    auth: 'browser',
    input: inputObject({
      event: BrowserSecurityEvent,
      detail: optionalInput(z.string().max(LIMITS.comment)),
    }),
    output: SuccessOutput,
  },
} as const satisfies Record<string, OperationDef>;

export type BrowserFilterOperation = keyof typeof browserFilter;
export type BrowserFilterInput<Op extends BrowserFilterOperation> = InputOf<
  (typeof browserFilter)[Op]
>;
export type BrowserFilterParsedInput<Op extends BrowserFilterOperation> = ParsedInputOf<
  (typeof browserFilter)[Op]
>;
export type BrowserFilterOutput<Op extends BrowserFilterOperation> = OutputOf<
  (typeof browserFilter)[Op]
>;

export const browserFilterOperationNames = Object.keys(browserFilter) as BrowserFilterOperation[];

/** Push messages on the browser's channel (server → extension). */
export const BrowserChannelMessage = z.discriminatedUnion('type', [
  /** the answer to a hello whose token is a browser's: the channel is open */
  z.object({ type: z.literal('welcome') }),
  /** keys, keychains, schedules, downtime or monitoring changed: check in */
  z.object({ type: z.literal('rulesChanged') }),
  z.object({ type: z.literal('unlockRequestDecided'), request: BrowserUnlockRequest }),
  z.object({ type: z.literal('suspensionDecided'), request: BrowserSuspensionRequest }),
  /** the parent removed this browser (or the child): forget the token, block everything */
  z.object({ type: z.literal('disconnected') }),
]);
export type BrowserChannelMessage = z.infer<typeof BrowserChannelMessage>;

/** The browser's filter state as it reports it (the Mac's `FilterState` cases a browser can be in). */
export const BrowserFilterState = z.discriminatedUnion('case', [
  z.object({ case: z.literal('on') }),
  z.object({ case: z.literal('suspended'), resuming: IsoDate.optional() }),
  z.object({ case: z.literal('downtime'), ending: IsoDate.optional() }),
]);
export type BrowserFilterState = z.infer<typeof BrowserFilterState>;

/** Frames the extension sends on its channel. */
export const BrowserChannelFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), token: Uuid }),
  /** every ~20 s while the browser is open (it keeps the service worker alive, and says online);
   * issue 32: with the filter state the extension applies (also sent at once when it changes) */
  z.object({ type: z.literal('ping'), state: BrowserFilterState.optional() }),
]);
export type BrowserChannelFrame = z.infer<typeof BrowserChannelFrame>;
