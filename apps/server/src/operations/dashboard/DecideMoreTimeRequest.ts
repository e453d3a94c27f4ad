import { dashboardResolver } from '../../pairql/resolver.ts';
import { decideMoreTime } from '../../requests/more-time.ts';

// Issue 34: the parent grants minutes for today (any number, 1 minute to 24 hours) or denies a
// child's request for more time. After the commit every browser of the child checks in again
// (userUpdated → rulesChanged), so a grant reaches each of them within 2 s.
export default dashboardResolver('DecideMoreTimeRequest', async (input, ctx) => {
  const { childId } = await decideMoreTime(ctx, input);
  await ctx.services.push.toChildren([childId], { case: 'userUpdated' });
  return { success: true };
});
