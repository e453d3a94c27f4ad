import { familyPeople } from '../../accounts/people.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 12: the owner and the co-parents (invited or active) of the session's family.
export default dashboardResolver('GetParents', async (_input, ctx) => {
  return familyPeople(ctx.db, ctx.parentId);
});
