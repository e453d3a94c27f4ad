import { toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Revokes the presented session. The router answers success for an already invalid token
// (idempotent, wire-contract §1.4), so this only sees live sessions.
export default dashboardResolver('Logout', async (_input, ctx) => {
  await ctx.db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: toDbTime(ctx.clock.now()) })
    .where('id', '=', ctx.sessionId)
    .where('revoked_at', 'is', null)
    .execute();
  return { success: true };
});
