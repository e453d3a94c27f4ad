import { readFile } from 'node:fs/promises';
import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { decideFlow } from '@keyward/domain/block-rules';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { DeviceApiError } from '../api.ts';
import { parseConnectionCode, parseInteger, serverUrlOf, UsageError } from '../args.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import {
  appBlockGroupsOf,
  type ConnectedIosState,
  createIosClient,
  describeFlow,
  flowOf,
  formatIosDecision,
  formatIosRules,
  fromIosBlockRule,
  fromIosSuspensionDecision,
  fromIosWebPolicy,
  fromLegacyBlockRule,
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
import { generateScreenshotJpeg, type Jpeg, jpegSize, putJpeg } from '../jpeg.ts';
import { NotConnectedError } from './shared.ts';

// `ios <command>`: plays a child's iPhone or iPad against the iOS device API, with its own state
// file beside the Mac's (state.json → state.ios.json). It speaks the app's wire (ios.ts) and
// decides and prints with the simulator's own shapes.

const SUBCOMMANDS: Record<string, (ctx: CommandContext, file: string) => Promise<ExitCode>> = {
  connect,
  rules,
  check,
  suspend,
  poll,
  screenshot,
  standalone,
};

export async function ios(ctx: CommandContext): Promise<ExitCode> {
  const [name] = ctx.parsed.args;
  if (name === undefined) {
    throw new UsageError(
      'ios needs a command: connect, rules, check, suspend, poll, screenshot or standalone',
    );
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

/**
 * ConnectedRules (which also refreshes the device's metadata), read from the app's wire;
 * remembered in the state. `json`: the answer as the server sent it.
 */
async function fetchRules(
  file: string,
  connected: { state: ConnectedIosState; api: ReturnType<typeof createIosClient> },
): Promise<{ rules: IosRules; json: unknown }> {
  const { facts } = connected.state;
  const { output, json } = await connected.api.callWithJson('ConnectedRules', facts);
  const rules: IosRules = {
    blockRules: output.blockRules.map(fromIosBlockRule),
    webPolicy: fromIosWebPolicy(output.webPolicy),
  };
  await updateIosState(file, connected.state, (state) => {
    state.rules = rules;
  });
  return { rules, json };
}

async function rules(ctx: CommandContext, file: string): Promise<ExitCode> {
  const connected = await loadConnected(ctx, file);
  const fetched = await fetchRules(file, connected);
  if (ctx.parsed.flags.has('json')) {
    ctx.print(JSON.stringify(fetched.json, null, 2));
    return EXIT.ok;
  }
  for (const line of formatIosRules(fetched.rules)) ctx.print(line);
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
  const { rules: fetched } = await fetchRules(file, connected);
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
  const decision = fromIosSuspensionDecision(
    await connected.api.call('PollFilterSuspensionDecision', id),
  );
  await updateIosState(file, connected.state, (state) => {
    const asked = state.suspensions.find((s) => s.id === id);
    if (asked) asked.decision = decision;
  });
  ctx.print(formatIosDecision(id, decision));
  return EXIT.ok;
}

async function readImage(file: string): Promise<Jpeg> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new UsageError(`Cannot read the image file "${file}"`);
  }
  const size = jpegSize(bytes);
  if (!size) throw new UsageError(`"${file}" is not a JPEG image`);
  return { bytes, ...size };
}

/**
 * `ios screenshot [--file x.jpg]`: as the app does while its filter is suspended: asks for an upload
 * URL (ScreenshotUploadUrl, the capture time in seconds since 2001), then PUTs the JPEG there.
 */
async function screenshot(ctx: CommandContext, file: string): Promise<ExitCode> {
  const imageFile = ctx.parsed.values.file;
  const image = imageFile
    ? await readImage(imageFile)
    : generateScreenshotJpeg(390, 844, ctx.now().getTime() % 97);
  const connected = await loadConnected(ctx, file);
  const { uploadUrl } = await connected.api.call('ScreenshotUploadUrl', {
    width: image.width,
    height: image.height,
    createdAt: toSwiftReferenceSeconds(ctx.now()),
  });
  await putJpeg(uploadUrl, image, ctx.signal);
  ctx.print(
    `uploaded a ${image.width}×${image.height} screenshot (${image.bytes.length} bytes) taken during a suspension`,
  );
  return EXIT.ok;
}

/**
 * `ios standalone [<group to turn off>...] [--json]`: the rules the app enforces without a parent
 * account (BlockRules_v2): every block group of the app but the ones named, plus this device's own
 * rules when its vendor id is connected. Needs no connection; the device's facts are kept.
 */
async function standalone(ctx: CommandContext, file: string): Promise<ExitCode> {
  const disabledGroups = appBlockGroupsOf(ctx.parsed.args);
  const previous = await loadIosState(file);
  const facts = iosFactsOf(ctx.parsed.values, previous?.facts);
  const serverUrl = serverUrlOf(ctx.parsed, ctx.env, previous?.serverUrl);
  const { output, json } = await createIosClient({
    serverUrl,
    signal: ctx.signal,
  }).callWithJson('BlockRules_v2', {
    disabledGroups,
    vendorId: facts.vendorId,
    version: facts.appVersion,
  });
  if (!previous) await saveIosState(file, { facts, suspensions: [] });
  if (ctx.parsed.flags.has('json')) {
    ctx.print(JSON.stringify(json, null, 2));
    return EXIT.ok;
  }
  ctx.print(
    `Without a parent account (${disabledGroups.length === 0 ? 'every block group on' : `off: ${disabledGroups.join(', ')}`}):`,
  );
  const [, ...ruleLines] = formatIosRules({
    blockRules: output.map(fromLegacyBlockRule),
    webPolicy: { case: 'allowAll' },
  });
  for (const line of ruleLines) ctx.print(line);
  return EXIT.ok;
}
