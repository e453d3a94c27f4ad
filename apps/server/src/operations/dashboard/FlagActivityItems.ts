import { sql } from 'kysely';
import { toDbTime } from '../../db/values.ts';
import { notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputerUserIdsQuery, ownedIosDeviceIdsQuery } from '../ownership.ts';

// server-behaviour §3.6: toggles `flagged` (null ↔ now) on the parent's matching screenshots (of
// their Macs and iOS devices, once stored); if none matched, on the parent's matching keystroke
// lines; if neither matched, notFound — the same answer for a missing id and another parent's id. A
// flag protects an item from retention for 60 days.
export default dashboardResolver('FlagActivityItems', async (input, ctx) => {
  const ids = [...new Set(input)];
  if (ids.length === 0) throw notFound('ActivityItem', 'FlagActivityItems: no ids');
  const now = toDbTime(ctx.clock.now());
  const toggled = sql<string | null>`case when flagged is null then ${now} else null end`;
  return ctx.db.transaction().execute(async (trx) => {
    const screenshots = await trx
      .updateTable('screenshots')
      .set({ flagged: toggled })
      .where('id', 'in', ids)
      .where('uploaded_at', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('computer_user_id', 'in', ownedComputerUserIdsQuery(trx, ctx.parentId)),
          eb('ios_device_id', 'in', ownedIosDeviceIdsQuery(trx, ctx.parentId)),
        ]),
      )
      .executeTakeFirst();
    if (Number(screenshots.numUpdatedRows) > 0) return { success: true };
    const lines = await trx
      .updateTable('keystroke_lines')
      .set({ flagged: toggled })
      .where('id', 'in', ids)
      .where('computer_user_id', 'in', ownedComputerUserIdsQuery(trx, ctx.parentId))
      .executeTakeFirst();
    if (Number(lines.numUpdatedRows) > 0) return { success: true };
    throw notFound('ActivityItem');
  });
});
