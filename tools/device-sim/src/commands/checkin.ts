import { formatCheckIn } from '../format.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { checkInNow, loadConnected } from './shared.ts';

export async function checkin(ctx: CommandContext): Promise<ExitCode> {
  const result = await checkInNow(ctx, await loadConnected(ctx));
  if (ctx.parsed.flags.has('json')) {
    ctx.print(JSON.stringify(result.json, null, 2));
    return EXIT.ok;
  }
  for (const line of formatCheckIn(result.output)) ctx.print(line);
  for (const line of result.decisions) ctx.print(line);
  if (result.changes.length) {
    ctx.print('Changed since the last check-in:');
    for (const change of result.changes) ctx.print(`  ${change}`);
  }
  return EXIT.ok;
}
