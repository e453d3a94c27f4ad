import { toAppToServerMessage } from '@keyward/contract/device';
import { DeviceApiError, describeApiError } from '../api.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { deleteState, isConnected, loadState } from '../state.ts';
import { loadConnected } from './shared.ts';

export async function disconnect(ctx: CommandContext): Promise<ExitCode> {
  const saved = await loadState(ctx.stateFile);
  if (isConnected(saved)) {
    const { api } = await loadConnected(ctx);
    try {
      await api.call('Heartbeat', toAppToServerMessage({ case: 'goingOffline' }));
    } catch (error) {
      if (!(error instanceof DeviceApiError)) throw error;
      // Forgetting this Mac locally still makes sense when the server is unhappy or gone.
      ctx.printError(
        `Could not tell the server this Mac is going offline: ${describeApiError(error)}`,
      );
    }
  }
  await deleteState(ctx.stateFile);
  ctx.print(
    saved
      ? `Disconnected; deleted ${ctx.stateFile}.`
      : `Nothing to disconnect (${ctx.stateFile} does not exist).`,
  );
  return EXIT.ok;
}
