import { allowanceProblem, hasAnyLimit, isValidTimeZone } from '@keyward/domain/screen-time';
import { lockChildRow } from '../../db/conflicts.ts';
import { toDbJson, toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChild, selectableKeychains } from '../ownership.ts';

// Issue 34: the child's daily allowance per day of the week (minutes, or null for no limit) and
// the keychains whose sites never use up time. The child's browsers check in again at once.
export default dashboardResolver('SaveScreenTime', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.childId);
  const problem = allowanceProblem(input.allowance);
  if (problem) throw badRequest('2f7c4a90', `Allowance refused: ${problem}`, problem);
  // own or public keychains only; another family's keychain is refused like a missing one
  const keychains = await selectableKeychains(ctx.db, ctx.parentId, input.exemptKeychainIds);
  const exempt = keychains.map((keychain) => keychain.id).sort();
  if (exempt.length > 0) {
    const assigned = await ctx.db
      .selectFrom('child_keychains')
      .select('keychain_id')
      .where('child_id', '=', child.id)
      .where('keychain_id', 'in', exempt)
      .execute();
    if (assigned.length !== exempt.length) {
      throw badRequest(
        '8a4e2d61',
        'An exempt keychain is not assigned to the child',
        'Only keychains this child has can be marked "doesn\'t use up time". Reload the page and try again.',
      );
    }
  }
  // the family's days: the dashboard's time zone, unless the family already has one (the weekly
  // report's setting); an unknown zone is ignored (the days stay in the family's zone, or UTC)
  const timeZone = input.timeZone?.trim();
  const family = await ctx.db
    .selectFrom('parents')
    .select('time_zone')
    .where('id', '=', ctx.parentId)
    .executeTakeFirstOrThrow();
  const adoptZone = !family.time_zone && timeZone && isValidTimeZone(timeZone) ? timeZone : null;
  await ctx.db.transaction().execute(async (trx) => {
    await lockChildRow(trx, child.id);
    if (adoptZone) {
      await trx
        .updateTable('parents')
        .set({ time_zone: adoptZone })
        .where('id', '=', ctx.parentId)
        .where('time_zone', 'is', null)
        .execute();
    }
    await trx
      .updateTable('children')
      .set({
        screen_time_allowance: hasAnyLimit(input.allowance) ? toDbJson(input.allowance) : null,
        screen_time_exempt: toDbJson(exempt),
        updated_at: toDbTime(ctx.clock.now()),
      })
      .where('id', '=', child.id)
      .execute();
  });
  await ctx.services.push.toChildren([child.id], { case: 'userUpdated' });
  return { success: true };
});
