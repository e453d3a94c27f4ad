import { lockChildRow } from '../../db/conflicts.ts';
import { toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedChild, selectableKeychain } from '../ownership.ts';

// server-behaviour §3.4: an own child and an own or public keychain. Assigned → unassigned;
// otherwise assigned always (no schedule). The child's Macs check in again.
//
// Decision (issue 14): the schedule of a removed assignment is not remembered, and a re-added one
// is always active, as the spec says: the input carries no schedule, and guessing one back (from
// a row kept after removal) would surprise just as much. So the widening is never silent on the
// dashboard's side instead: the keychains list asks before it removes a scheduled assignment,
// saying that the schedule is lost and that turning the child back on means always; its chips
// show which assignments are scheduled; schedules are set on the child's page (SaveUser).
export default dashboardResolver('ToggleChildKeychain', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.childId);
  const keychain = await selectableKeychain(ctx.db, ctx.parentId, input.keychainId);

  await ctx.db.transaction().execute(async (trx) => {
    await lockChildRow(trx, child.id);
    const removed = await trx
      .deleteFrom('child_keychains')
      .where('child_id', '=', child.id)
      .where('keychain_id', '=', keychain.id)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) > 0) return;
    await trx
      .insertInto('child_keychains')
      .values({
        id: newToken(),
        child_id: child.id,
        keychain_id: keychain.id,
        schedule: null,
        created_at: toDbTime(ctx.clock.now()),
      })
      .execute();
  });

  await ctx.services.push.toChildren([child.id], { case: 'userUpdated' });
  return { success: true };
});
