import { recordAppEvents, takeAppEventBudget } from '../../devices/app-events.ts';
import { countUnidentifiedApps } from '../../devices/check-in.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

// The Mac's filter reports what it saw since the last report: events with how often each happened
// (kept for the operator), and how many times each app made a network connection (apps the
// catalogue does not know are counted for the operator, as the check-in's named apps are).
export default deviceResolver('LogFilterEvents', async (input, ctx) => {
  await takeAppEventBudget(ctx, ctx.computerUserId);
  const events: { id: string; detail?: string }[] = [];
  const counts: number[] = [];
  // a Swift dictionary keyed by a struct: event, count, event, count, …
  for (let i = 0; i + 1 < input.events.length; i += 2) {
    const event = input.events[i];
    const count = input.events[i + 1];
    if (typeof event !== 'object' || typeof count !== 'number') continue;
    events.push(event);
    counts.push(count);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await recordAppEvents(
      trx,
      ctx.clock.now(),
      events.map((event, i) => ({
        eventId: event.id,
        kind: 'event',
        context: 'macapp-filter',
        computerUserId: ctx.computerUserId,
        parentId: ctx.parentId,
        detail: [event.detail, counts[i]! > 1 ? `(${counts[i]}x)` : undefined]
          .filter((part) => part !== undefined)
          .join(' '),
      })),
    );
    await countUnidentifiedApps(
      { ...ctx, db: trx },
      Object.entries(input.bundleIds).map(([bundleId, count]) => ({ bundleId, count })),
    );
  });
  return {};
});
