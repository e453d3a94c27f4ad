import { loadChildProfiles } from '../../children/profiles.ts';
import { notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChild } from '../ownership.ts';

// server-behaviour §3.1: one owned child.
export default dashboardResolver('GetUser', async (childId, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, childId);
  const [profile] = await loadChildProfiles(ctx.db, ctx.parentId, ctx.clock.now(), child.id);
  if (!profile) throw notFound('Child');
  return profile;
});
