import path from 'node:path';

// Command-line parsing: pure, so it is unit-tested without running anything.

export const VALUE_OPTIONS = [
  'server',
  'state',
  'serial',
  'numeric-id',
  'username',
  'full-username',
  'model',
  'app-version',
  'os-version',
  'heartbeat-seconds',
  'at',
  'app',
  'comment',
  'file',
  'device-type',
  'ios-version',
] as const;
export const FLAG_OPTIONS = [
  'admin',
  'json',
  'help',
  'suspended',
  'day',
  'browser',
  'no-browser',
] as const;

export type ValueOption = (typeof VALUE_OPTIONS)[number];
export type FlagOption = (typeof FLAG_OPTIONS)[number];

export interface ParsedArgs {
  command: string | undefined;
  /** positional arguments after the command */
  args: string[];
  values: Partial<Record<ValueOption, string>>;
  flags: Set<FlagOption>;
}

export class UsageError extends Error {}

function isValueOption(name: string): name is ValueOption {
  return (VALUE_OPTIONS as readonly string[]).includes(name);
}

function isFlagOption(name: string): name is FlagOption {
  return (FLAG_OPTIONS as readonly string[]).includes(name);
}

/** Options may come anywhere: `--state a.json checkin --json` and `checkin --state=a.json`. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const values: ParsedArgs['values'] = {};
  const flags = new Set<FlagOption>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      flags.add('help');
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      if (arg !== '--') positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    if (isFlagOption(name)) {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
    } else if (isValueOption(name)) {
      const value = equals === -1 ? argv[++i] : arg.slice(equals + 1);
      if (value === undefined || (equals === -1 && value.startsWith('--'))) {
        throw new UsageError(`--${name} needs a value`);
      }
      values[name] = value;
    } else {
      throw new UsageError(`Unknown option --${name}`);
    }
  }
  const [command, ...args] = positionals;
  return { command, args, values, flags };
}

export function parseInteger(name: string, raw: string, min = Number.MIN_SAFE_INTEGER): number {
  if (!/^-?\d+$/.test(raw.trim()))
    throw new UsageError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min) throw new UsageError(`${name} must be at least ${min}, got ${value}`);
  return value;
}

/** Connection codes are 6 digits (100000-999999). */
export function parseConnectionCode(raw: string | undefined): number {
  if (raw === undefined) throw new UsageError('connect needs the 6-digit connection code');
  if (!/^\d{6}$/.test(raw.trim())) {
    throw new UsageError(`A connection code is 6 digits, got "${raw}"`);
  }
  return Number(raw);
}

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';
export const DEFAULT_STATE_FILE = './.device-sim/state.json';

export type Env = Record<string, string | undefined>;

/**
 * --state, else DEVICE_SIM_STATE, else ./.device-sim/state.json. Relative paths are taken from
 * where `npm run` was typed (INIT_CWD): npm runs workspace scripts inside the workspace folder.
 */
export function stateFileOf(parsed: ParsedArgs, env: Env, cwd: string): string {
  const file = parsed.values.state ?? (env.DEVICE_SIM_STATE || DEFAULT_STATE_FILE);
  return path.resolve(env.INIT_CWD || cwd, file);
}

/**
 * --server, else KEYWARD_SERVER, else the server this Mac connected to, else the default.
 * An explicit choice always wins over the state file.
 */
export function serverUrlOf(parsed: ParsedArgs, env: Env, connectedTo?: string): string {
  const url = parsed.values.server ?? (env.KEYWARD_SERVER || connectedTo || DEFAULT_SERVER_URL);
  return url.replace(/\/+$/, '');
}

export const USAGE = `Usage: npm run device -- <command> [options]

Plays one child's Mac against a Keyward server, through the device API only.

Commands:
  connect <code>            connect this Mac with a 6-digit connection code
      --serial X  --numeric-id 501  --username child  --full-username Child
      --model MacBookAir10,1  --app-version 2.6.0  --os-version 14.5.0  --admin
  checkin [--json]          check in and print the child's settings
  state on|off              report the filter state
  state suspended <min>     report a filter suspension ending in <min> minutes
  state downtime <min>      report downtime ending in <min> minutes
  state downtime-paused <min>
  online                    hold the push channel, print pushes and decisions as they
                            arrive, check in on userUpdated; reconnect (1 s, 2 s … 30 s
                            apart) when the server restarts or the network drops
      --heartbeat-seconds 90
  keys [--at <ISO date>]    print the keys that apply on this computer now
  unlock <url|host|ip>...   ask the parent to unlock these (one request each, sent together)
      --app <bundle id>     the app that was blocked (default com.apple.Safari)
      --comment "..."       one comment for the whole batch
  suspend <minutes>         ask the parent to suspend the filter for <minutes>
      --comment "..."
  requests                  list what this Mac asked and what the parent decided
  screenshot                upload a screenshot taken now (a generated JPEG)
      --file <x.jpg>        upload this JPEG instead
      --suspended           taken during a filter suspension
  type <app> <text...>      one typed line in <app> now (--suspended too)
  activity --day [N]        fill today (or yesterday, early in the morning) with N items
                            (default 60): screenshots every few minutes, typed lines in
                            several apps, some during a suspension
  disconnect                go offline and delete the state file
  help                      print this text

iOS device (an iPhone or iPad; its state is kept beside the Mac's, in state.ios.json):
  ios connect <code>        connect with a 6-digit connection code
      --device-type iPad  --ios-version 17.5  --app-version 1.4.0
  ios rules [--json]        fetch and print the block rules and web policy
  ios check <url|host>      would the device block this now? (fetches the rules, then
                            prints blocked/allowed with the reason)
      --app <bundle id>     the app making the connection (default Safari)
      --browser | --no-browser   whether it is a browser (default: browser without --app)
  ios suspend <minutes>     ask the parent to suspend the filter (--comment "...")
  ios poll [<id>]           the parent's decision on a suspension request (default: the last)

Options:
  --server <url>    server (default $KEYWARD_SERVER or ${DEFAULT_SERVER_URL})
  --state <file>    state file (default $DEVICE_SIM_STATE or ${DEFAULT_STATE_FILE})
`;
