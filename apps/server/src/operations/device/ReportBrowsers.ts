import { recordAppEvents, takeAppEventBudget } from '../../devices/app-events.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

// The Mac reports the browsers it found. The browser list is shared by every family, so one
// device's report does not change it (a hostile device could otherwise make any app count as a
// browser for web-browser keys everywhere): browsers the list does not know yet are kept for the
// operator, who adds real ones with a migration.
export default deviceResolver('ReportBrowsers', async (input, ctx) => {
  await takeAppEventBudget(ctx, ctx.computerUserId);
  const bundleIds = [...new Set(input.map((browser) => browser.bundleId))];
  if (bundleIds.length === 0) return { success: true };
  const known = new Set(
    (
      await ctx.db.selectFrom('browsers').select('match').where('match', 'in', bundleIds).execute()
    ).map((row) => row.match),
  );
  const seen = new Set<string>();
  const fresh = input.filter((browser) => {
    if (known.has(browser.bundleId) || seen.has(browser.bundleId)) return false;
    seen.add(browser.bundleId);
    return true;
  });
  await recordAppEvents(
    ctx.db,
    ctx.clock.now(),
    fresh.map((browser) => ({
      eventId: 'browserReported',
      kind: 'browser',
      context: 'macapp',
      computerUserId: ctx.computerUserId,
      parentId: ctx.parentId,
      detail: `${browser.name} (${browser.bundleId})`,
    })),
  );
  return { success: true };
});
