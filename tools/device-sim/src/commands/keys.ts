import type { CheckInKeychain } from '@keyward/contract/device';
import { describeKey } from '@keyward/domain/keys';
import {
  isKeychainActiveAt,
  type LocalDateParts,
  localDatePartsOf,
} from '@keyward/domain/schedule';
import { UsageError } from '../args.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { checkInNow, loadConnected } from './shared.ts';

/** One readable line per key of every keychain whose schedule is active at `at`. */
export function keysActiveAt(keychains: readonly CheckInKeychain[], at: LocalDateParts): string[] {
  return keychains
    .filter((keychain) => isKeychainActiveAt(keychain.schedule, at))
    .flatMap((keychain) => keychain.keys.map((key) => describeKey(key.key)));
}

export async function keys(ctx: CommandContext): Promise<ExitCode> {
  const atArg = ctx.parsed.values.at;
  const at = atArg === undefined ? ctx.now() : new Date(atArg);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--at needs a date, got "${atArg}"`);

  const { output } = await checkInNow(ctx, await loadConnected(ctx));
  // This Mac's own local time, like the real app.
  const lines = keysActiveAt(output.keychains, localDatePartsOf(at));
  if (lines.length === 0) ctx.print('No keys apply on this computer right now.');
  for (const line of lines) ctx.print(line);
  return EXIT.ok;
}
