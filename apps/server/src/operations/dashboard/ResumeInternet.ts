import { lockChildRow } from '../../db/conflicts.ts';
import { toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChild } from '../ownership.ts';

// Issue 34: ends a pause at once (resuming a child who is not paused changes nothing).
export default dashboardResolver('ResumeInternet', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.childId);
  if (child.paused_at === null) return { success: true };
  await ctx.db.transaction().execute(async (trx) => {
    await lockChildRow(trx, child.id);
    await trx
      .updateTable('children')
      .set({ paused_at: null, paused_until: null, updated_at: toDbTime(ctx.clock.now()) })
      .where('id', '=', child.id)
      .execute();
  });
  await ctx.services.push.toChildren([child.id], { case: 'userUpdated' });
  return { success: true };
});
