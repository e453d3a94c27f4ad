import { STALE_BUILD_MS, signedExportUrl } from '../../exports/data-export.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedDataExport } from '../ownership.ts';

// Issue 12: the progress of a data export and, once ready, a fresh signed download link valid
// until the export expires. Another family's export id is answered like a missing one.
export default dashboardResolver('GetDataExport', async (input, ctx) => {
  const row = await ownedDataExport(ctx.db, ctx.parentId, input.exportId);
  const now = ctx.clock.now();
  if (row.status === 'ready') {
    const expiresAt = row.expires_at ? new Date(row.expires_at) : now;
    if (expiresAt <= now || row.storage_key === null) return { status: 'expired', progress: 100 };
    return {
      status: 'ready',
      progress: 100,
      url: signedExportUrl(ctx.config.publicUrl, ctx.config.hmacKey, row.id, expiresAt),
      expiresAt: expiresAt.toISOString(),
    };
  }
  const stale = now.getTime() - new Date(row.updated_at).getTime() > STALE_BUILD_MS;
  if (row.status === 'failed' || stale) {
    ctx.log.warn({ error: row.error }, 'data export failed');
    return { status: 'failed', progress: row.progress };
  }
  return { status: row.status, progress: row.progress };
});
