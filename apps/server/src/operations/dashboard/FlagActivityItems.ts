import { sql } from 'kysely';
import { storedAlertWords } from '../../activity/alerts.ts';
import type { Db } from '../../db/database.ts';
import { toDbTime } from '../../db/values.ts';
import { notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputerUserIdsQuery, ownedIosDeviceIdsQuery } from '../ownership.ts';

// server-behaviour §3.6: toggles `flagged` (null ↔ now) on the parent's matching screenshots (of
// their Macs and iOS devices, once stored); if none matched, on the parent's matching keystroke
// lines; if neither matched, notFound — the same answer for a missing id and another parent's id. A
// flag protects an item from retention for 60 days. Issue 24: unflagging an alerted line drops its
// alert and counts a false alert for each of its words.
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
    await countFalseAlerts(trx, ctx.parentId, ids, now);
    // issue 24: unflagging an alerted line reports a false alert: the alert goes with the flag
    const keptWhileFlagged = (column: 'alert_category' | 'alert_words' | 'alerted_at') =>
      sql<string | null>`case when flagged is null then ${sql.ref(column)} else null end`;
    const lines = await trx
      .updateTable('keystroke_lines')
      .set({
        flagged: toggled,
        alert_category: keptWhileFlagged('alert_category'),
        alert_words: keptWhileFlagged('alert_words'),
        alerted_at: keptWhileFlagged('alerted_at'),
      })
      .where('id', 'in', ids)
      .where('computer_user_id', 'in', ownedComputerUserIdsQuery(trx, ctx.parentId))
      .executeTakeFirst();
    if (Number(lines.numUpdatedRows) > 0) return { success: true };
    throw notFound('ActivityItem');
  });
});

/**
 * Issue 24: the alerted lines about to be unflagged are false alerts the parent reports; each word
 * of their alerts counts once per line, per child (docs/activity-alerts.md), so noisy words show.
 */
async function countFalseAlerts(trx: Db, parentId: string, ids: string[], now: string) {
  const alerted = await trx
    .selectFrom('keystroke_lines as k')
    .innerJoin('computer_users as cu', 'cu.id', 'k.computer_user_id')
    .select(['cu.child_id', 'k.alert_category', 'k.alert_words'])
    .where('k.id', 'in', ids)
    .where('k.computer_user_id', 'in', ownedComputerUserIdsQuery(trx, parentId))
    .where('k.flagged', 'is not', null)
    .where('k.alert_category', 'is not', null)
    .execute();
  const counts = new Map<string, { childId: string; category: string; word: string; n: number }>();
  for (const row of alerted) {
    const category = row.alert_category ?? '';
    for (const word of new Set(storedAlertWords(row.alert_words))) {
      const key = JSON.stringify([row.child_id, category, word]);
      const count = counts.get(key) ?? { childId: row.child_id, category, word, n: 0 };
      count.n += 1;
      counts.set(key, count);
    }
  }
  for (const { childId, category, word, n } of counts.values()) {
    await trx
      .insertInto('activity_alert_false_reports')
      .values({ child_id: childId, category, word, count: n, last_reported_at: now })
      .onConflict((oc) =>
        oc.columns(['child_id', 'category', 'word']).doUpdateSet({
          count: sql<number>`${sql.ref('activity_alert_false_reports.count')} + ${n}`,
          last_reported_at: now,
        }),
      )
      .execute();
  }
}
