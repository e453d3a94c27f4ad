import {
  buildActivityFeed,
  NO_ACTIVITY_SOURCES,
  parseActivityRange,
} from '../../activity/activity.ts';
import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedActivitySourcesByChild } from '../ownership.ts';

// server-behaviour §3.6: the family feed of a range, one entry per child (by name), each from the
// child's Macs and iOS devices.
export default dashboardResolver('CombinedUsersActivityFeed', async (input, ctx) => {
  const range = parseActivityRange(input.range);
  const children = await ctx.db
    .selectFrom('children')
    .select(['id', 'name', 'show_suspension_activity'])
    .where('parent_id', '=', ctx.parentId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const sourcesByChild = await ownedActivitySourcesByChild(ctx.db, ctx.parentId);
  const feeds = [];
  for (const child of children) {
    feeds.push(
      await buildActivityFeed(ctx.db, ctx.services.storage, {
        userName: child.name,
        showSuspensionActivity: fromDbBool(child.show_suspension_activity),
        sources: sourcesByChild.get(child.id) ?? NO_ACTIVITY_SOURCES,
        start: range.start,
        end: range.end,
      }),
    );
  }
  return feeds;
});
