import { loadFamilyDevices } from '../../devices/family-devices.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 20: every device of the family, of every kind, with its live status and pending requests.
export default dashboardResolver('GetFamilyDevices', async (_input, ctx) =>
  loadFamilyDevices(ctx.db, { parentId: ctx.parentId, now: ctx.clock.now() }),
);
