import { toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputerUserIdsQuery, ownedIosDeviceIdsQuery } from '../ownership.ts';

// server-behaviour §3.6: marks reviewed (soft delete) only the parent's own items (of their Macs and
// iOS devices; screenshots once their image is stored) that are not flagged and not yet reviewed;
// every other id (missing, another parent's, flagged) is skipped silently, so a foreign id answers
// exactly like a missing one. At most 1000 ids (the contract).
export default dashboardResolver('DeleteActivityItems_v2', async (input, ctx) => {
  const now = toDbTime(ctx.clock.now());
  const screenshotIds = [...new Set(input.screenshotIds)];
  const lineIds = [...new Set(input.keystrokeLineIds)];
  await ctx.db.transaction().execute(async (trx) => {
    if (screenshotIds.length > 0) {
      await trx
        .updateTable('screenshots')
        .set({ deleted_at: now })
        .where('id', 'in', screenshotIds)
        .where('flagged', 'is', null)
        .where('deleted_at', 'is', null)
        .where('uploaded_at', 'is not', null)
        .where((eb) =>
          eb.or([
            eb('computer_user_id', 'in', ownedComputerUserIdsQuery(trx, ctx.parentId)),
            eb('ios_device_id', 'in', ownedIosDeviceIdsQuery(trx, ctx.parentId)),
          ]),
        )
        .execute();
    }
    if (lineIds.length > 0) {
      await trx
        .updateTable('keystroke_lines')
        .set({ deleted_at: now })
        .where('id', 'in', lineIds)
        .where('flagged', 'is', null)
        .where('deleted_at', 'is', null)
        .where('computer_user_id', 'in', ownedComputerUserIdsQuery(trx, ctx.parentId))
        .execute();
    }
  });
  return { success: true };
});
