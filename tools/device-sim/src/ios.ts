import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_TAGS } from '@keyward/contract/constants';
import {
  type IosAppInput,
  type IosAppOperation,
  IosSuspensionDecision,
  iosApp,
} from '@keyward/contract/ios';
import { BlockRule, WebPolicy } from '@keyward/contract/shared';
import { describeBlockRule, type Flow } from '@keyward/domain/block-rules';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { z } from 'zod';
import { DeviceApiError, postOperation } from './api.ts';
import { UsageError } from './args.ts';
import { blockedRequestOf } from './requests.ts';

// The simulated iPhone or iPad (`ios …` commands): its own state file, a typed client of the iOS
// device API (`POST /pairql/ios-app/{Op}`, `X-DeviceToken`, server-behaviour §5), and the pure
// helpers the commands print with.

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
  appVersion: '1.4.0',
  iosVersion: '17.5',
};

export const IosRules = z.object({
  blockRules: z.array(BlockRule),
  webPolicy: z.object({ case: WebPolicy, domains: z.array(z.string()).optional() }),
});
export type IosRules = z.infer<typeof IosRules>;

export const IosAskedSuspension = z.object({
  id: z.string(),
  durationSeconds: z.number(),
  askedAt: z.string(),
  comment: z.string().optional(),
  /** the last answer polled */
  decision: IosSuspensionDecision.optional(),
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
  return {
    async call<Op extends IosAppOperation>(op: Op, input: IosAppInput<Op>): Promise<IosOutput<Op>> {
      const def = iosApp[op];
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (def.auth === 'iosDevice') {
        if (!options.token) throw new DeviceApiError(`${op} needs a connected iOS device`);
        headers['X-DeviceToken'] = options.token;
      }
      const { output } = await postOperation({
        op,
        url: iosOperationUrl(options.serverUrl, op),
        serverUrl: options.serverUrl,
        headers,
        body: JSON.stringify(input),
        signal: options.signal,
        output: def.output,
      });
      return output as IosOutput<Op>;
    },
  };
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

export function formatIosDecision(id: string, decision: IosSuspensionDecision): string {
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
