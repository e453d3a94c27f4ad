import { auditLogPage } from '../../audit/record.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 12: the family's audit log, 50 entries a page, newest first; `nextBefore` fetches the
// next page. Filters by person and child; another family's ids simply match nothing.
export default dashboardResolver('GetAuditLog', async (input, ctx) => {
  return auditLogPage(ctx.db, ctx.parentId, input);
});
