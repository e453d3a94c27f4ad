import { mine } from '../../accounts/people.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedPushSubscription } from '../ownership.ts';

// Issue 23: turns "This device" off: the method and its rules go. Only the person's own (a
// co-parent's device answers like a missing one, accounts/people.ts `mine`).
export default dashboardResolver('DeletePushSubscription', async (input, ctx) => {
  const method = mine(
    ctx,
    await ownedPushSubscription(ctx.db, ctx.parentId, input.id),
    'PushSubscription',
  );
  await ctx.db
    .transaction()
    .execute((trx) =>
      trx
        .deleteFrom('notification_methods')
        .where('id', '=', method.id)
        .where('parent_id', '=', ctx.parentId)
        .execute(),
    );
  return { success: true };
});
