import { exemptFromAudit } from '../../audit/unit-of-work.ts';
import { toDbTime } from '../../db/values.ts';
import { removeExpiredExports, startDataExport } from '../../exports/data-export.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { newToken } from '../../services/tokens.ts';

// Issue 12: 'Download my data'. Answers at once with the export's id; the ZIP is built in the
// background (exports/data-export.ts) and its link emailed to the person who asked.
export default dashboardResolver('RequestDataExport', async (_input, ctx) => {
  const { dataExportsPerParent } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `data-export:parent:${ctx.parentId}`,
    dataExportsPerParent.limit,
    dataExportsPerParent.windowSeconds,
  );
  // clearing expired exports and building this one in the background are not the audited change
  const outside = { ...ctx, db: exemptFromAudit(ctx.db) };
  await removeExpiredExports(outside, ctx.parentId);
  const exportId = newToken();
  const now = toDbTime(ctx.clock.now());
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('data_exports')
      .values({
        id: exportId,
        parent_id: ctx.parentId,
        person_id: ctx.personId,
        status: 'pending',
        progress: 0,
        storage_key: null,
        size_bytes: null,
        error: null,
        created_at: now,
        updated_at: now,
        expires_at: null,
      })
      .execute();
    await recordSecurityEvent({ ...ctx, db: trx }, ctx.parentId, 'dataExportRequested');
  });
  startDataExport(outside, exportId, ctx.parentId);
  return { exportId };
});
