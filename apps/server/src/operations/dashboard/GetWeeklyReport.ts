import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 23: whether the family's weekly report email is on, and the time zone of its evening.
export default dashboardResolver('GetWeeklyReport', async (_input, ctx) => {
  const parent = await ctx.db
    .selectFrom('parents')
    .select(['weekly_report', 'time_zone'])
    .where('id', '=', ctx.parentId)
    .executeTakeFirstOrThrow();
  return {
    isEnabled: fromDbBool(parent.weekly_report),
    ...(parent.time_zone ? { timeZone: parent.time_zone } : {}),
  };
});
