import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_TAGS } from '@keyward/contract/constants';
import {
  IOS_APP_BLOCK_GROUPS,
  type IosAppBlockGroup,
  type IosAppInput,
  type IosAppOperation,
  type IosBlockRule,
  type IosFlowType,
  type IosLegacyBlockRule,
  type IosSuspensionDecision,
  type IosWebPolicy,
  iosApp,
} from '@keyward/contract/ios';
import { BlockRule, WebPolicy } from '@keyward/contract/shared';
import { swiftCaseName } from '@keyward/contract/swift';
import { describeBlockRule, type Flow } from '@keyward/domain/block-rules';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { z } from 'zod';
import { DeviceApiError, postOperation } from './api.ts';
import { UsageError } from './args.ts';
import { blockedRequestOf } from './requests.ts';

// The simulated iPhone or iPad (`ios …` commands): its own state file, a typed client of the iOS
// device API (`POST /pairql/ios-app/{Op}`, `X-DeviceToken`, server-behaviour §5) that speaks the
// iOS app 1.5.0's wire (contract ios.ts: dates sent as seconds since 2001, answers in Swift's
// synthesized enum coding), the conversions from that wire to the shapes the simulator decides and
// prints with, and the pure helpers the commands print with.

// ---------------------------------------------------------------------------------------------
// State: a file of its own beside the Mac's (state.json → state.ios.json)

export const IosFacts = z.object({
  vendorId: z.string(),
  deviceType: z.string(),
  appVersion: z.string(),
  iosVersion: z.string(),
});
export type IosFacts = z.infer<typeof IosFacts>;

export const DEFAULT_IOS_FACTS: Omit<IosFacts, 'vendorId'> = {
  deviceType: 'iPad',
  appVersion: '1.5.0',
  iosVersion: '17.5',
};

/** The rules as the simulator keeps and decides with them (the dashboard's shapes). */
export const IosRules = z.object({
  blockRules: z.array(BlockRule),
  webPolicy: z.object({ case: WebPolicy, domains: z.array(z.string()).optional() }),
});
export type IosRules = z.infer<typeof IosRules>;

/** A polled decision as the state file keeps it. */
export const IosDecision = z.discriminatedUnion('case', [
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
export type IosDecision = z.infer<typeof IosDecision>;

export const IosAskedSuspension = z.object({
  id: z.string(),
  durationSeconds: z.number(),
  askedAt: z.string(),
  comment: z.string().optional(),
  /** the last answer polled */
  decision: IosDecision.optional(),
});
export type IosAskedSuspension = z.infer<typeof IosAskedSuspension>;

export const IosState = z.object({
  facts: IosFacts,
  serverUrl: z.string().optional(),
  token: z.string().optional(),
  deviceId: z.string().optional(),
  childId: z.string().optional(),
  childName: z.string().optional(),
  connectedAt: z.string().optional(),
  /** the rules fetched last */
  rules: IosRules.optional(),
  suspensions: z.array(IosAskedSuspension).default([]),
});
export type IosState = z.infer<typeof IosState>;
export type ConnectedIosState = IosState & { serverUrl: string; token: string; deviceId: string };

export function isIosConnected(state: IosState | undefined): state is ConnectedIosState {
  return !!state?.token && !!state.serverUrl && !!state.deviceId;
}

/** `.device-sim/state.json` → `.device-sim/state.ios.json`; any other name gains `.ios.json`. */
export function iosStateFileOf(macStateFile: string): string {
  const parsed = path.parse(macStateFile);
  const base = parsed.ext === '.json' ? parsed.name : parsed.base;
  return path.join(parsed.dir, `${base}.ios.json`);
}

export class IosStateFileError extends Error {}

export async function loadIosState(file: string): Promise<IosState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new IosStateFileError(`The iOS state file ${file} is not valid JSON; delete it.`);
  }
  const parsed = IosState.safeParse(json);
  if (!parsed.success) {
    throw new IosStateFileError(`The iOS state file ${file} is not a device-sim iOS state.`);
  }
  return parsed.data;
}

export async function saveIosState(file: string, state: IosState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** Flags win over what this device used before, which wins over the defaults. */
export function iosFactsOf(
  values: { 'device-type'?: string; 'ios-version'?: string; 'app-version'?: string },
  previous: IosFacts | undefined,
): IosFacts {
  return {
    vendorId: previous?.vendorId ?? randomUUID(),
    deviceType: values['device-type'] ?? previous?.deviceType ?? DEFAULT_IOS_FACTS.deviceType,
    appVersion: values['app-version'] ?? previous?.appVersion ?? DEFAULT_IOS_FACTS.appVersion,
    iosVersion: values['ios-version'] ?? previous?.iosVersion ?? DEFAULT_IOS_FACTS.iosVersion,
  };
}

// ---------------------------------------------------------------------------------------------
// The app's wire → the simulator's shapes

export function fromIosFlowType(flowType: IosFlowType): 'browser' | 'socket' {
  return 'browser' in flowType ? 'browser' : 'socket';
}

/** ConnectedRules' `BlockRule`: `{case, …}` with a synthesized `FlowType`. */
export function fromIosBlockRule(rule: IosBlockRule): BlockRule {
  switch (rule.case) {
    case 'flowTypeIs':
      return { case: 'flowTypeIs', value: fromIosFlowType(rule.value) };
    case 'both':
      return { case: 'both', a: fromIosBlockRule(rule.a), b: fromIosBlockRule(rule.b) };
    case 'unless':
      return {
        case: 'unless',
        rule: fromIosBlockRule(rule.rule),
        negatedBy: rule.negatedBy.map(fromIosBlockRule),
      };
    default:
      return { case: rule.case, value: rule.value };
  }
}

/** `BlockRule.Legacy` (BlockRules_v2, DefaultBlockRules), every case synthesized. */
export function fromLegacyBlockRule(rule: IosLegacyBlockRule): BlockRule {
  if ('both' in rule) {
    return {
      case: 'both',
      a: fromLegacyBlockRule(rule.both._0),
      b: fromLegacyBlockRule(rule.both._1),
    };
  }
  if ('unless' in rule) {
    return {
      case: 'unless',
      rule: fromLegacyBlockRule(rule.unless.rule),
      negatedBy: rule.unless.negatedBy.map(fromLegacyBlockRule),
    };
  }
  if ('flowTypeIs' in rule) {
    return { case: 'flowTypeIs', value: fromIosFlowType(rule.flowTypeIs._0) };
  }
  if ('bundleIdContains' in rule)
    return { case: 'bundleIdContains', value: rule.bundleIdContains._0 };
  if ('urlContains' in rule) return { case: 'urlContains', value: rule.urlContains._0 };
  if ('hostnameContains' in rule)
    return { case: 'hostnameContains', value: rule.hostnameContains._0 };
  if ('hostnameEquals' in rule) return { case: 'hostnameEquals', value: rule.hostnameEquals._0 };
  if ('hostnameEndsWith' in rule)
    return { case: 'hostnameEndsWith', value: rule.hostnameEndsWith._0 };
  return { case: 'targetContains', value: rule.targetContains._0 };
}

/** `WebContentFilterPolicy`: the listing policies carry their domains as `_0`. */
export function fromIosWebPolicy(policy: IosWebPolicy): IosRules['webPolicy'] {
  if ('blockAdultAnd' in policy) return { case: 'blockAdultAnd', domains: policy.blockAdultAnd._0 };
  if ('blockAllExcept' in policy) {
    return { case: 'blockAllExcept', domains: policy.blockAllExcept._0 };
  }
  return { case: WebPolicy.parse(swiftCaseName(policy)) };
}

export function fromIosSuspensionDecision(decision: IosSuspensionDecision): IosDecision {
  if ('accepted' in decision) return { case: 'accepted', ...decision.accepted };
  if ('denied' in decision) return { case: 'denied', ...decision.denied };
  if ('pending' in decision) return { case: 'pending' };
  return { case: 'notFound' };
}

/** The app's group names given on the command line (`gifs`, `spotifyImages`, …). */
export function appBlockGroupsOf(names: readonly string[]): IosAppBlockGroup[] {
  return names.map((name) => {
    const group = IOS_APP_BLOCK_GROUPS.find((g) => g.toLowerCase() === name.toLowerCase());
    if (!group) {
      throw new UsageError(
        `Unknown block group "${name}"; the app's groups are: ${IOS_APP_BLOCK_GROUPS.join(', ')}`,
      );
    }
    return group;
  });
}

// ---------------------------------------------------------------------------------------------
// Client

export type IosOutput<Op extends IosAppOperation> = z.output<(typeof iosApp)[Op]['output']>;

export function iosOperationUrl(serverUrl: string, op: IosAppOperation): string {
  return `${serverUrl.replace(/\/+$/, '')}/pairql/ios-app/${op}`;
}

export const IOS_CONNECTION_REMOVED_MESSAGE =
  "This iOS device's connection was removed. Ask the parent for a new connection code and run ios connect again.";

export function isIosConnectionRemoved(error: DeviceApiError): boolean {
  return error.body?.appTag === APP_TAGS.iosDeviceTokenNotFound;
}

export function createIosClient(options: {
  serverUrl: string;
  token?: string;
  signal?: AbortSignal;
}) {
  /** The output, and the JSON exactly as the server sent it. */
  async function callWithJson<Op extends IosAppOperation>(
    op: Op,
    input: IosAppInput<Op>,
  ): Promise<{ output: IosOutput<Op>; json: unknown }> {
    const def = iosApp[op];
    // like the app: a JSON body only for operations with an input
    const headers: Record<string, string> =
      def.input === null ? {} : { 'Content-Type': 'application/json' };
    if (def.auth === 'iosDevice') {
      if (!options.token) throw new DeviceApiError(`${op} needs a connected iOS device`);
      headers['X-DeviceToken'] = options.token.toUpperCase();
    }
    const { output, json } = await postOperation({
      op,
      url: iosOperationUrl(options.serverUrl, op),
      serverUrl: options.serverUrl,
      headers,
      body: def.input === null ? undefined : JSON.stringify(appJson(input)),
      signal: options.signal,
      output: def.output,
    });
    return { output: output as IosOutput<Op>, json };
  }
  return {
    callWithJson,
    async call<Op extends IosAppOperation>(op: Op, input: IosAppInput<Op>): Promise<IosOutput<Op>> {
      return (await callWithJson(op, input)).output;
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A body as the app's JSONEncoder writes it: a `UUID` is upper case (the bare id of
 * PollFilterSuspensionDecision, the `vendorId` of the others).
 */
export function appJson(input: unknown): unknown {
  if (typeof input === 'string') return UUID.test(input) ? input.toUpperCase() : input;
  if (input !== null && typeof input === 'object' && 'vendorId' in input) {
    const { vendorId } = input as { vendorId: unknown };
    return typeof vendorId === 'string' ? { ...input, vendorId: vendorId.toUpperCase() } : input;
  }
  return input;
}

// ---------------------------------------------------------------------------------------------
// What the device sees and says

/** The bundle id of a check without --app: Safari, a browser. */
export const DEFAULT_IOS_APP = 'com.apple.mobilesafari';

/**
 * The flow `ios check` asks about: a URL (https:// added when a path has no scheme) or a host
 * name, from --app (default Safari). Without --browser/--no-browser, a flow is a browser's when
 * no --app was given.
 */
export function flowOf(
  raw: string | undefined,
  options: { app?: string; browser?: boolean; noBrowser?: boolean },
): Flow {
  if (raw === undefined) throw new UsageError('ios check needs a url or host name');
  if (options.browser && options.noBrowser) {
    throw new UsageError('--browser and --no-browser cannot be used together');
  }
  const bundleId = options.app ?? DEFAULT_IOS_APP;
  const request = blockedRequestOf(raw, bundleId);
  const isBrowser = options.browser ? true : options.noBrowser ? false : options.app === undefined;
  const hostname = request.hostname ?? request.ipAddress;
  return {
    bundleId,
    isBrowser,
    ...(hostname ? { hostname } : {}),
    ...(request.url ? { url: request.url } : {}),
  };
}

export function describeFlow(flow: Flow): string {
  const target = flow.url ?? flow.hostname ?? '(no address)';
  return `${target} in ${flow.bundleId} (${flow.isBrowser ? 'browser' : 'not a browser'})`;
}

const POLICY_WORDS: Record<WebPolicy, string> = {
  allowAll: 'allow all websites',
  blockAll: 'block all websites',
  blockAdult: 'block adult websites',
  blockAdultAnd: 'block adult websites and these domains',
  blockAllExcept: 'block all websites except these domains',
};

export function formatIosRules(rules: IosRules): string[] {
  const { webPolicy } = rules;
  const domains = webPolicy.domains ?? [];
  const lines = [
    `Web policy: ${POLICY_WORDS[webPolicy.case]} (${webPolicy.case})${
      webPolicy.domains ? `: ${domains.length === 0 ? 'no domains' : domains.join(', ')}` : ''
    }`,
    `Block rules: ${rules.blockRules.length}`,
  ];
  for (const rule of rules.blockRules) lines.push(`  - ${describeBlockRule(rule)}`);
  return lines;
}

const quoted = (comment: string | undefined) => (comment ? `: "${comment}"` : '');

export function formatIosDecision(id: string, decision: IosDecision): string {
  switch (decision.case) {
    case 'pending':
      return `suspension request ${id} pending`;
    case 'notFound':
      return `suspension request ${id} not found`;
    case 'denied':
      return `suspension request ${id} denied${quoted(decision.parentComment)}`;
    case 'accepted':
      return `suspension request ${id} accepted: ${suspensionDurationLabel(decision.duration)}${quoted(decision.parentComment)}`;
  }
}
