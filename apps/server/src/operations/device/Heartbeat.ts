import { recordDeviceMessage } from '../../devices/presence.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

// For a Mac without a WebSocket: the same presence and filter-state update the channel makes.
export default deviceResolver('Heartbeat', async (input, ctx) => {
  await recordDeviceMessage(ctx.db, ctx.computerUserId, input, ctx.clock.now());
  return { success: true };
});
