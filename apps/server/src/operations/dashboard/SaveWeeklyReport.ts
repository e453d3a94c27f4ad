import { toDbBool, toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 23: the weekly report switch (owner only, pairql/roles.ts: it goes to the account's
// address). The dashboard sends its browser's IANA time zone with it; the report comes on Sunday
// evening there.
export default dashboardResolver('SaveWeeklyReport', async (input, ctx) => {
  const timeZone = input.timeZone?.trim() || undefined;
  if (timeZone !== undefined && !isTimeZone(timeZone)) {
    throw badRequest(
      '5e1d7c40',
      `Unknown time zone ${timeZone}`,
      "Your browser's time zone is not one Keyward knows. The report will come in the evening, UTC.",
    );
  }
  await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('parents')
      .set({
        weekly_report: toDbBool(input.isEnabled),
        ...(timeZone ? { time_zone: timeZone } : {}),
        updated_at: toDbTime(ctx.clock.now()),
      })
      .where('id', '=', ctx.parentId)
      .execute(),
  );
  return { success: true };
});

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
