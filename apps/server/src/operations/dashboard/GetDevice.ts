import { loadDevices } from '../../devices/computers.ts';
import { notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputer } from '../ownership.ts';

// server-behaviour §3.3: one owned computer.
export default dashboardResolver('GetDevice', async (computerId, ctx) => {
  const computer = await ownedComputer(ctx.db, ctx.parentId, computerId);
  const [device] = await loadDevices(ctx.db, ctx.parentId, ctx.clock.now(), computer.id);
  if (!device) throw notFound('Computer');
  return device;
});
