import { UsageError } from '../args.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { blockedRequestOf, DEFAULT_REQUEST_APP, emptyRequests, targetOf } from '../requests.ts';
import { loadConnected, updateState } from './shared.ts';

/** `unlock <url|host|ip>... [--app <bundle id>] [--comment ...]`: one batch, one shared comment. */
export async function unlock(ctx: CommandContext): Promise<ExitCode> {
  if (ctx.parsed.args.length === 0) {
    throw new UsageError('unlock needs at least one url, host name or IP address');
  }
  const bundleId = ctx.parsed.values.app?.trim() || DEFAULT_REQUEST_APP;
  const blockedRequests = ctx.parsed.args.map((raw) => blockedRequestOf(raw, bundleId));
  const comment = ctx.parsed.values.comment;
  const connected = await loadConnected(ctx);
  const ids = await connected.api.call('CreateUnlockRequests_v3', {
    blockedRequests,
    ...(comment ? { comment } : {}),
  });

  const askedAt = ctx.now().toISOString();
  await updateState(ctx, connected, (state) => {
    state.requests ??= emptyRequests();
    blockedRequests.forEach((request, index) => {
      const id = ids[index];
      if (!id) return;
      state.requests!.unlock.push({
        id,
        target: targetOf(request),
        bundleId,
        askedAt,
        status: 'pending',
      });
    });
  });
  blockedRequests.forEach((request, index) => {
    ctx.print(`asked to unlock ${targetOf(request)} (request ${ids[index]})`);
  });
  return EXIT.ok;
}
