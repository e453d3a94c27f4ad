import { recordAppEvents, takeAppEventBudget } from '../../devices/app-events.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

// The Mac app reports something worth a look (an unexpected error, an onboarding step), without a
// token: kept for the operator. `deviceId` links it to a computer user only when there is one.
export default deviceResolver('LogInterestingEvent', async (input, ctx) => {
  await takeAppEventBudget(ctx);
  const computerUser =
    input.deviceId === undefined
      ? undefined
      : await ctx.db
          .selectFrom('computer_users')
          .select('id')
          .where('id', '=', input.deviceId)
          .executeTakeFirst();
  await recordAppEvents(ctx.db, ctx.clock.now(), [
    {
      eventId: input.eventId,
      kind: input.kind,
      context: 'macapp',
      computerUserId: computerUser?.id ?? null,
      detail: input.detail ?? null,
    },
  ]);
  return { success: true };
});
