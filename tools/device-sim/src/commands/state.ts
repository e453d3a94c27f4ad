import { type FilterState, toAppToServerMessage } from '@keyward/contract/device';
import { parseInteger, UsageError } from '../args.ts';
import { formatFilterState } from '../format.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { saveState } from '../state.ts';
import { loadConnected } from './shared.ts';

const STATE_NAMES = ['on', 'off', 'suspended', 'downtime', 'downtime-paused'] as const;

/** `state suspended 30` → `{ case: 'suspended', resuming: now + 30 min }`. */
export function filterStateOf(args: readonly string[], now: Date): FilterState {
  const [name, minutesArg] = args;
  if (name === 'on' || name === 'off') {
    if (minutesArg !== undefined) throw new UsageError(`state ${name} takes no minutes`);
    return { case: name };
  }
  if (name === 'suspended' || name === 'downtime' || name === 'downtime-paused') {
    if (minutesArg === undefined) throw new UsageError(`state ${name} needs <minutes>`);
    const minutes = parseInteger('<minutes>', minutesArg, 1);
    const until = new Date(now.getTime() + minutes * 60_000).toISOString();
    if (name === 'suspended') return { case: 'suspended', resuming: until };
    if (name === 'downtime') return { case: 'downtime', ending: until };
    return { case: 'downtimePaused', resuming: until };
  }
  throw new UsageError(`state needs one of: ${STATE_NAMES.join(', ')}`);
}

export async function state(ctx: CommandContext): Promise<ExitCode> {
  const filterState = filterStateOf(ctx.parsed.args, ctx.now());
  const connected = await loadConnected(ctx);
  await connected.api.call(
    'Heartbeat',
    toAppToServerMessage({ case: 'currentFilterState_v2', state: filterState }),
  );
  connected.state.filterState = filterState;
  await saveState(ctx.stateFile, connected.state);
  ctx.print(`Reported: ${formatFilterState(filterState)}`);
  return EXIT.ok;
}
