import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DeviceApiError, describeApiError } from './api.ts';
import { parseArgs, stateFileOf, USAGE, UsageError } from './args.ts';
import { activity, screenshot, type } from './commands/activity.ts';
import { checkin } from './commands/checkin.ts';
import { connect } from './commands/connect.ts';
import { disconnect } from './commands/disconnect.ts';
import { ios } from './commands/ios.ts';
import { keys } from './commands/keys.ts';
import { online } from './commands/online.ts';
import { requests } from './commands/requests.ts';
import { NotConnectedError } from './commands/shared.ts';
import { state } from './commands/state.ts';
import { suspend } from './commands/suspend.ts';
import { unlock } from './commands/unlock.ts';
import { IosStateFileError } from './ios.ts';
import { type CommandContext, EXIT, type ExitCode, type Io } from './io.ts';
import { StateFileError } from './state.ts';

const COMMANDS: Record<string, (ctx: CommandContext) => Promise<ExitCode>> = {
  connect,
  checkin,
  state,
  online,
  keys,
  unlock,
  suspend,
  requests,
  screenshot,
  type,
  activity,
  disconnect,
  ios,
};

/** The whole CLI as a function: tests call it directly, `main` wires it to the process. */
export async function run(argv: readonly string[], io: Io): Promise<ExitCode> {
  const stderr = io.stderr ?? io.stdout;
  const print = (line: string) => io.stdout.write(`${line}\n`);
  const printError = (line: string) => stderr.write(`${line}\n`);
  try {
    const parsed = parseArgs(argv);
    if (parsed.flags.has('help') || parsed.command === undefined || parsed.command === 'help') {
      print(USAGE);
      return parsed.command === undefined && !parsed.flags.has('help') ? EXIT.failed : EXIT.ok;
    }
    const command = COMMANDS[parsed.command];
    if (!command) throw new UsageError(`Unknown command "${parsed.command}"`);
    const env = io.env ?? process.env;
    return await command({
      parsed,
      env,
      stateFile: stateFileOf(parsed, env, process.cwd()),
      print,
      printError,
      signal: io.signal,
      now: io.now ?? (() => new Date()),
    });
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`${error.message}\nRun \`npm run device -- help\` for usage.`);
    } else if (error instanceof DeviceApiError) {
      printError(describeApiError(error));
      if (error.isConnectionRemoved) return EXIT.connectionRemoved;
    } else if (
      error instanceof NotConnectedError ||
      error instanceof StateFileError ||
      error instanceof IosStateFileError
    ) {
      printError(error.message);
    } else {
      throw error;
    }
    return EXIT.failed;
  }
}

async function main(): Promise<void> {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  const code = await run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
  });
  process.exit(code);
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(EXIT.failed);
  });
}
