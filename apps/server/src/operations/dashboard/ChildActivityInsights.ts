import { INSIGHT_DAYS, summariseActivityWeek, topCounts } from '@keyward/domain/activity-insights';
import { loadActivityRows, normaliseOffset } from '../../activity/activity.ts';
import { DAY, fromDbBool, toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedChildActivitySources } from '../ownership.ts';

// Issue 24: one child's last 7 local days at a glance: items by day and by hour (reviewed ones
// included), alerts and flags, the apps typed in most, what the child asked to unlock most, time
// suspended, and the false alerts the parent reported. Another family's child is notFound.
export default dashboardResolver('ChildActivityInsights', async (input, ctx) => {
  const offset = normaliseOffset(input.jsTimezoneOffsetMinutes);
  const { child, sources } = await ownedChildActivitySources(ctx.db, ctx.parentId, input.childId);
  const now = ctx.clock.now();
  const week = summariseActivityWeek(
    await loadActivityRows(ctx.db, {
      sources,
      after: new Date(now.getTime() - (INSIGHT_DAYS + 1) * DAY),
      countsOnly: true,
    }),
    now,
    offset,
  );
  const from = toDbTime(week.weekStart);
  const macIds = [...sources.computerUserIds];

  const [appRows, requestRows, suspensions, falseAlerts] = await Promise.all([
    macIds.length === 0
      ? []
      : ctx.db
          .selectFrom('keystroke_lines')
          .select('app_name')
          .where('computer_user_id', 'in', macIds)
          .where('created_at', '>=', from)
          .execute(),
    macIds.length === 0
      ? []
      : ctx.db
          .selectFrom('unlock_requests')
          .select(['url', 'hostname', 'ip_address', 'app_bundle_id'])
          .where('computer_user_id', 'in', macIds)
          .where('created_at', '>=', from)
          .execute(),
    suspendedSeconds(ctx.db, sources, from),
    ctx.db
      .selectFrom('activity_alert_false_reports')
      .select(['category', 'word', 'count'])
      .where('child_id', '=', child.id)
      .orderBy('count', 'desc')
      .orderBy('word')
      .limit(20)
      .execute(),
  ]);

  return {
    childName: child.name,
    keyloggingEnabled: fromDbBool(child.keylogging_enabled),
    weekStart: week.weekStart.toISOString(),
    days: week.days.map((day) => ({
      date: day.date.toISOString(),
      numItems: day.numItems,
      numAlerts: day.numAlerts,
      numFlagged: day.numFlagged,
    })),
    hours: week.hours,
    topApps: topCounts(appRows.map((row) => row.app_name)).map(({ value, count }) => ({
      appName: value,
      numLines: count,
    })),
    topRequests: topCounts(
      requestRows.map((row) => row.url ?? row.hostname ?? row.ip_address ?? row.app_bundle_id),
    ).map(({ value, count }) => ({ target: value, numRequests: count })),
    numItems: week.numItems,
    numFlagged: week.numFlagged,
    numAlerts: week.numAlerts,
    alertsByCategory: week.alertsByCategory,
    suspendedSeconds: suspensions,
    falseAlerts: falseAlerts.map((row) => ({
      category: row.category,
      word: row.word,
      count: Number(row.count),
    })),
  };
});

/** Granted suspensions decided within the week (requests are kept 3 days, §7.2). */
async function suspendedSeconds(
  db: Parameters<typeof loadActivityRows>[0],
  sources: { computerUserIds: readonly string[]; iosDeviceIds: readonly string[] },
  from: string,
): Promise<number> {
  const mac =
    sources.computerUserIds.length === 0
      ? []
      : await db
          .selectFrom('mac_suspend_filter_requests')
          .select('duration')
          .where('computer_user_id', 'in', [...sources.computerUserIds])
          .where('status', '=', 'accepted')
          .where('updated_at', '>=', from)
          .execute();
  const ios =
    sources.iosDeviceIds.length === 0
      ? []
      : await db
          .selectFrom('ios_suspend_filter_requests')
          .select('duration')
          .where('device_id', 'in', [...sources.iosDeviceIds])
          .where('status', '=', 'accepted')
          .where('updated_at', '>=', from)
          .execute();
  return [...mac, ...ios].reduce((sum, row) => sum + Number(row.duration), 0);
}
