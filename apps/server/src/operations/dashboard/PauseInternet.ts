import { MAX_PAUSE_MINUTES, pauseEnd } from '@keyward/domain/screen-time';
import { lockChildRow } from '../../db/conflicts.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChild } from '../ownership.ts';

// Issue 34: "Pause internet" for `minutes`, or until the parent resumes (null). Every Keyward
// filter of the child blocks everything: its browsers and DNS devices hear of it on their push
// (userUpdated → the browser's rulesChanged; a DNS device's policy is dropped), within 2 s.
export default dashboardResolver('PauseInternet', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.childId);
  const now = ctx.clock.now();
  if (
    input.minutes !== null &&
    (!Number.isInteger(input.minutes) || input.minutes < 1 || input.minutes > MAX_PAUSE_MINUTES)
  ) {
    throw badRequest(
      '71c9e3b5',
      `Pause of ${input.minutes} minutes`,
      'A pause lasts between 1 minute and 7 days, or until you resume.',
    );
  }
  const until = pauseEnd(input.minutes, now);
  await ctx.db.transaction().execute(async (trx) => {
    await lockChildRow(trx, child.id);
    await trx
      .updateTable('children')
      .set({
        paused_at: toDbTime(now),
        paused_until: until ? toDbTime(until) : null,
        updated_at: toDbTime(now),
      })
      .where('id', '=', child.id)
      .execute();
  });
  await ctx.services.push.toChildren([child.id], { case: 'userUpdated' });
  return { success: true };
});
