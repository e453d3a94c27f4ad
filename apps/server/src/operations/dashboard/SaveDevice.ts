import { toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputer } from '../ownership.ts';

// server-behaviour §3.3: the parent's name for the computer (trimmed; absent or blank clears it;
// the contract caps it at 100) and its release channel. Its Macs check in again to see the channel.
export default dashboardResolver('SaveDevice', async (input, ctx) => {
  const computer = await ownedComputer(ctx.db, ctx.parentId, input.id);
  const name = input.name?.trim() || null;
  await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('computers')
      .set({
        custom_name: name,
        app_release_channel: input.releaseChannel,
        updated_at: toDbTime(ctx.clock.now()),
      })
      .where('id', '=', computer.id)
      .where('parent_id', '=', ctx.parentId)
      .execute(),
  );
  await ctx.services.push.toComputer(computer.id, { case: 'userUpdated' });
  return { success: true };
});
