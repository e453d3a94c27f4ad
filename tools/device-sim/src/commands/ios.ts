import { decideFlow } from '@keyward/domain/block-rules';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { DeviceApiError } from '../api.ts';
import { parseConnectionCode, parseInteger, serverUrlOf, UsageError } from '../args.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import {
  type ConnectedIosState,
  createIosClient,
  describeFlow,
  flowOf,
  formatIosDecision,
  formatIosRules,
  IOS_CONNECTION_REMOVED_MESSAGE,
  type IosRules,
  type IosState,
  iosFactsOf,
  iosStateFileOf,
  isIosConnected,
  isIosConnectionRemoved,
  loadIosState,
  saveIosState,
} from '../ios.ts';
import { NotConnectedError } from './shared.ts';

// `ios <command>`: plays a child's iPhone or iPad against the iOS device API, with its own state
// file beside the Mac's (state.json → state.ios.json).

const SUBCOMMANDS: Record<string, (ctx: CommandContext, file: string) => Promise<ExitCode>> = {
  connect,
  rules,
  check,
  suspend,
  poll,
};

export async function ios(ctx: CommandContext): Promise<ExitCode> {
  const [name] = ctx.parsed.args;
  if (name === undefined) {
    throw new UsageError('ios needs a command: connect, rules, check, suspend or poll');
  }
  const subcommand = SUBCOMMANDS[name];
  if (!subcommand) throw new UsageError(`Unknown ios command "${name}"`);
  const file = iosStateFileOf(ctx.stateFile);
  const args = ctx.parsed.args.slice(1);
  try {
    return await subcommand({ ...ctx, parsed: { ...ctx.parsed, args } }, file);
  } catch (error) {
    if (error instanceof DeviceApiError && isIosConnectionRemoved(error)) {
      ctx.printError(IOS_CONNECTION_REMOVED_MESSAGE);
      return EXIT.connectionRemoved;
    }
    throw error;
  }
}

async function loadConnected(ctx: CommandContext, file: string) {
  const state = await loadIosState(file);
  if (!isIosConnected(state)) {
    throw new NotConnectedError(
      `This iOS device is not connected (no connection in ${file}). Run: ios connect <code>`,
    );
  }
  const serverUrl = serverUrlOf(ctx.parsed, ctx.env, state.serverUrl);
  return {
    state,
    api: createIosClient({ serverUrl, token: state.token, signal: ctx.signal }),
  };
}

/** Re-reads the file before writing: another command may have changed it since. */
async function updateIosState(
  file: string,
  fallback: IosState,
  change: (state: IosState) => void,
): Promise<void> {
  const current = (await loadIosState(file)) ?? fallback;
  change(current);
  await saveIosState(file, current);
}

async function connect(ctx: CommandContext, file: string): Promise<ExitCode> {
  const code = parseConnectionCode(ctx.parsed.args[0]);
  const previous = await loadIosState(file);
  const facts = iosFactsOf(ctx.parsed.values, previous?.facts);
  const serverUrl = serverUrlOf(ctx.parsed, ctx.env, previous?.serverUrl);
  const output = await createIosClient({ serverUrl, signal: ctx.signal }).call('ConnectDevice', {
    verificationCode: code,
    ...facts,
  });
  await saveIosState(file, {
    facts,
    serverUrl,
    token: output.token,
    deviceId: output.deviceId,
    childId: output.childId,
    childName: output.childName,
    connectedAt: ctx.now().toISOString(),
    suspensions: previous?.suspensions ?? [],
  });
  ctx.print(
    `Connected to ${serverUrl}: this ${facts.deviceType} (iOS ${facts.iosVersion}, vendor id ${facts.vendorId}) is now ${output.childName}'s ${facts.deviceType}.`,
  );
  ctx.print(`iOS device id: ${output.deviceId}`);
  return EXIT.ok;
}

/** ConnectedRules (which also refreshes the device's metadata); remembered in the state. */
async function fetchRules(
  file: string,
  connected: { state: ConnectedIosState; api: ReturnType<typeof createIosClient> },
): Promise<IosRules> {
  const { facts } = connected.state;
  const rules = await connected.api.call('ConnectedRules', facts);
  await updateIosState(file, connected.state, (state) => {
    state.rules = rules;
  });
  return rules;
}

async function rules(ctx: CommandContext, file: string): Promise<ExitCode> {
  const connected = await loadConnected(ctx, file);
  const fetched = await fetchRules(file, connected);
  if (ctx.parsed.flags.has('json')) {
    ctx.print(JSON.stringify(fetched, null, 2));
    return EXIT.ok;
  }
  for (const line of formatIosRules(fetched)) ctx.print(line);
  return EXIT.ok;
}

/** `ios check <url|host> [--app X] [--browser|--no-browser]`: what the device would do now. */
async function check(ctx: CommandContext, file: string): Promise<ExitCode> {
  const flow = flowOf(ctx.parsed.args[0], {
    app: ctx.parsed.values.app,
    browser: ctx.parsed.flags.has('browser'),
    noBrowser: ctx.parsed.flags.has('no-browser'),
  });
  const connected = await loadConnected(ctx, file);
  const fetched = await fetchRules(file, connected);
  const decision = decideFlow(fetched.blockRules, fetched.webPolicy, flow);
  ctx.print(
    `${decision.blocked ? 'blocked' : 'allowed'}: ${describeFlow(flow)} — ${decision.reason}`,
  );
  return EXIT.ok;
}

async function suspend(ctx: CommandContext, file: string): Promise<ExitCode> {
  const raw = ctx.parsed.args[0];
  if (raw === undefined) throw new UsageError('ios suspend needs the number of minutes');
  const minutes = parseInteger('minutes', raw, 1);
  const comment = ctx.parsed.values.comment;
  const connected = await loadConnected(ctx, file);
  const id = await connected.api.call('CreateSuspendFilterRequest', {
    duration: minutes * 60,
    ...(comment ? { comment } : {}),
  });
  await updateIosState(file, connected.state, (state) => {
    state.suspensions.push({
      id,
      durationSeconds: minutes * 60,
      askedAt: ctx.now().toISOString(),
      ...(comment ? { comment } : {}),
    });
  });
  ctx.print(
    `asked to suspend the filter for ${suspensionDurationLabel(minutes * 60)} (request ${id})`,
  );
  return EXIT.ok;
}

/** `ios poll [<id>]`: the parent's decision on a request (default: the newest one asked). */
async function poll(ctx: CommandContext, file: string): Promise<ExitCode> {
  const connected = await loadConnected(ctx, file);
  const id = ctx.parsed.args[0] ?? connected.state.suspensions.at(-1)?.id;
  if (id === undefined) {
    throw new UsageError('No suspension request to poll: run ios suspend <minutes> first');
  }
  const decision = await connected.api.call('PollFilterSuspensionDecision', id);
  await updateIosState(file, connected.state, (state) => {
    const asked = state.suspensions.find((s) => s.id === id);
    if (asked) asked.decision = decision;
  });
  ctx.print(formatIosDecision(id, decision));
  return EXIT.ok;
}
