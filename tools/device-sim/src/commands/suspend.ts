import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { parseInteger, UsageError } from '../args.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { emptyRequests } from '../requests.ts';
import { loadConnected, updateState } from './shared.ts';

/** `suspend <minutes> [--comment ...]`: ask the parent to suspend the filter for a while. */
export async function suspend(ctx: CommandContext): Promise<ExitCode> {
  const raw = ctx.parsed.args[0];
  if (raw === undefined) throw new UsageError('suspend needs the number of minutes');
  const minutes = parseInteger('minutes', raw, 1);
  const comment = ctx.parsed.values.comment;
  const connected = await loadConnected(ctx);
  const id = await connected.api.call('CreateSuspendFilterRequest_v2', {
    duration: minutes * 60,
    ...(comment ? { comment } : {}),
  });
  await updateState(ctx, connected, (state) => {
    state.requests ??= emptyRequests();
    state.requests.suspension.push({
      id,
      durationSeconds: minutes * 60,
      askedAt: ctx.now().toISOString(),
    });
  });
  ctx.print(
    `asked to suspend the filter for ${suspensionDurationLabel(minutes * 60)} (request ${id})`,
  );
  return EXIT.ok;
}
