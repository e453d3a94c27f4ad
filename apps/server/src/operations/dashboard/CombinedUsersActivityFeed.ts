import { buildActivityFeed, parseActivityRange } from '../../activity/activity.ts';
import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedComputerUsersByChild } from '../ownership.ts';

// server-behaviour §3.6: the family feed of a range, one entry per child (by name).
export default dashboardResolver('CombinedUsersActivityFeed', async (input, ctx) => {
  const range = parseActivityRange(input.range);
  const children = await ctx.db
    .selectFrom('children')
    .select(['id', 'name', 'show_suspension_activity'])
    .where('parent_id', '=', ctx.parentId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const computerUsers = await ownedComputerUsersByChild(ctx.db, ctx.parentId);
  const feeds = [];
  for (const child of children) {
    feeds.push(
      await buildActivityFeed(ctx.db, ctx.services.storage, {
        userName: child.name,
        showSuspensionActivity: fromDbBool(child.show_suspension_activity),
        computerUserIds: computerUsers
          .filter((row) => row.childId === child.id)
          .map((row) => row.computerUserId),
        start: range.start,
        end: range.end,
      }),
    );
  }
  return feeds;
});
