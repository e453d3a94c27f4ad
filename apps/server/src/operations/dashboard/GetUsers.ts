import { loadChildProfiles } from '../../children/profiles.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.1: every child of the session parent.
export default dashboardResolver('GetUsers', async (_input, ctx) =>
  loadChildProfiles(ctx.db, ctx.parentId, ctx.clock.now()),
);
