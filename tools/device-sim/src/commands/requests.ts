import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { formatRequests } from '../requests.ts';
import { checkInNow, loadConnected } from './shared.ts';

/** `requests`: what this Mac asked, with the decisions (checked in first to learn new ones). */
export async function requests(ctx: CommandContext): Promise<ExitCode> {
  const connected = await loadConnected(ctx);
  await checkInNow(ctx, connected);
  // a check-in asks about one suspension request: ask about any other undecided ones too
  const undecided = connected.state.requests?.suspension.filter((request) => !request.decision);
  for (const request of undecided ?? []) {
    await checkInNow(ctx, connected, request.id);
  }
  for (const line of formatRequests(connected.state.requests)) ctx.print(line);
  return EXIT.ok;
}
