import { loadDevices } from '../../devices/computers.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.3: every computer of the session parent.
export default dashboardResolver('GetDevices', async (_input, ctx) =>
  loadDevices(ctx.db, ctx.parentId, ctx.clock.now()),
);
