import type { DashboardWidgetsOutput } from '@keyward/contract/shared';
import { ACTIVITY_WINDOW_DAYS, coalesceActivity } from '@keyward/domain/activity';
import { PENDING_SHOWN_PER_CHILD } from '@keyward/domain/request-flood';
import { childStatus } from '@keyward/domain/status';
import { sql } from 'kysely';
import { loadActivityRows, screenshotsOf } from '../../activity/activity.ts';
import { groupBy } from '../../collections.ts';
import { DAY, fromDbInt, toDbTime } from '../../db/values.ts';
import { computerUserStatuses } from '../../devices/status.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { loadNewestPendingUnlockRequests } from '../../requests/unlock-requests.ts';
import { ownedActivitySourcesByChild, ownedComputerUsersByChild } from '../ownership.ts';

// server-behaviour §3.7: the home page. No children → everything empty and no announcement.
export default dashboardResolver('DashboardWidgets', async (_input, ctx) => {
  const now = ctx.clock.now();
  const children = await ctx.db
    .selectFrom('children')
    .select(['id', 'name'])
    .where('parent_id', '=', ctx.parentId)
    .orderBy('created_at')
    .orderBy('name')
    .execute();
  const empty: DashboardWidgetsOutput = {
    children: [],
    childActivitySummaries: [],
    unlockRequests: [],
    recentScreenshots: [],
    numParentNotifications: 0,
  };
  if (children.length === 0) return empty;

  const computerUsers = await ownedComputerUsersByChild(ctx.db, ctx.parentId);
  const computerUsersOf = groupBy(computerUsers, (cu) => cu.childId);
  const statuses = await computerUserStatuses(
    ctx.db,
    computerUsers.map((cu) => cu.computerUserId),
    now,
  );
  const idsOf = (childId: string) =>
    (computerUsersOf.get(childId) ?? []).map((cu) => cu.computerUserId);

  // activity of the child's Macs and iOS devices (issue 18); stored screenshots only (issue 19)
  const sourcesByChild = await ownedActivitySourcesByChild(ctx.db, ctx.parentId);
  const windowStart = new Date(now.getTime() - ACTIVITY_WINDOW_DAYS * DAY);
  const childActivitySummaries: DashboardWidgetsOutput['childActivitySummaries'] = [];
  const recentScreenshots: DashboardWidgetsOutput['recentScreenshots'] = [];
  for (const child of children) {
    const sources = sourcesByChild.get(child.id);
    if (!sources) continue;
    const entries = coalesceActivity(
      await loadActivityRows(ctx.db, {
        sources,
        after: windowStart,
        until: now,
        countsOnly: true,
      }),
    );
    const numReviewed = entries.filter((entry) => entry.deletedAt !== null).length;
    childActivitySummaries.push({
      id: child.id,
      name: child.name,
      numUnreviewed: entries.length - numReviewed,
      numReviewed,
    });
    // newest screenshot of the child in the window, reviewed ones included
    const newest = await ctx.db
      .selectFrom('screenshots')
      .select(['id', 'object_key', 'created_at'])
      .where((eb) => screenshotsOf(eb, sources))
      .where('uploaded_at', 'is not', null)
      .where('created_at', '>', toDbTime(windowStart))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (newest) {
      recentScreenshots.push({
        id: newest.id,
        childName: child.name,
        url: await ctx.services.storage.readUrl(newest.object_key),
        createdAt: new Date(newest.created_at).toISOString(),
      });
    }
  }
  recentScreenshots.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));

  // issue 31: a page of each child's newest pending requests, never all of them (polled)
  const unlockRequests = (
    await loadNewestPendingUnlockRequests(ctx.db, ctx.parentId, PENDING_SHOWN_PER_CHILD)
  ).map((request) => ({
    id: request.id,
    childId: request.userId,
    childName: request.userName,
    target: request.url ?? request.domain ?? request.ipAddress ?? '',
    ...(request.requestComment ? { comment: request.requestComment } : {}),
    createdAt: request.createdAt,
  }));

  const notifications = await ctx.db
    .selectFrom('notifications')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('parent_id', '=', ctx.parentId)
    .executeTakeFirst();

  const announcement = await ctx.db
    .selectFrom('announcements')
    .select(['id', 'icon', 'html', 'learn_more_url'])
    .where('parent_id', '=', ctx.parentId)
    .where('deleted_at', '>', toDbTime(now))
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();

  return {
    children: children.map((child) => {
      const ids = idsOf(child.id);
      return {
        id: child.id,
        name: child.name,
        status: childStatus(ids.map((id) => statuses.get(id) ?? { case: 'offline' })),
        numDevices: ids.length,
      };
    }),
    childActivitySummaries,
    unlockRequests,
    recentScreenshots,
    numParentNotifications: fromDbInt(notifications?.n ?? 0),
    ...(announcement
      ? {
          announcement: {
            id: announcement.id,
            html: announcement.html,
            ...(announcement.icon ? { icon: announcement.icon } : {}),
            ...(announcement.learn_more_url ? { learnMoreUrl: announcement.learn_more_url } : {}),
          },
        }
      : {}),
  };
});
