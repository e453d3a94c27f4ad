import { alertsOfLines, loadChildAlertSettings } from '../../activity/alerts.ts';
import { toDbBool, toDbJson, toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { notifyAboutChild } from '../../notifications/child-writes.ts';
import { newToken } from '../../services/tokens.ts';

const APP_NAME_MAX = 255;

// server-behaviour §4.3: bulk insert of typed lines (`time` → created_at). NUL characters are
// replaced by U+FFFD by the router for this operation (replacesNulCharacters below). Issue 19: each
// line is counted against the Mac's and the child's per-minute budget of typed lines.
const resolver = deviceResolver('CreateKeystrokeLines', async (input, ctx) => {
  if (input.some((entry) => entry.appName.length > APP_NAME_MAX)) {
    throw badRequest(
      'c81e5a90',
      `CreateKeystrokeLines: an app name is over ${APP_NAME_MAX} characters`,
      `An app name is too long (at most ${APP_NAME_MAX} characters).`,
    );
  }
  if (input.length === 0) return { success: true };
  const owner = { deviceId: ctx.computerUserId, childId: ctx.childId };
  await takeDeviceWriteBudget(ctx, 'keystrokeLines', owner, input.length);
  // issue 31: what a batch costs to match grows with its characters, not its lines
  await takeDeviceWriteBudget(
    ctx,
    'keystrokeCharacters',
    owner,
    input.reduce((sum, entry) => sum + entry.line.length, 0),
  );
  // Issue 24: a line that matches the child's alert words is flagged with its alert in the same
  // insert (matching a batch of 100 lines takes well under a millisecond: npm run bench -- --alerts;
  // a long batch gives the event loop back as it goes, issue 31)
  const now = ctx.clock.now();
  const alerts = await alertsOfLines(
    input.map((entry) => entry.line),
    await loadChildAlertSettings(ctx.db, ctx.childId),
  );
  const rows = input.map((entry, i) => {
    const alert = alerts[i];
    return {
      id: newToken(),
      computer_user_id: ctx.computerUserId,
      app_name: entry.appName,
      line: entry.line,
      filter_suspended: toDbBool(entry.filterSuspended ?? false),
      flagged: alert ? toDbTime(now) : null,
      created_at: toDbTime(new Date(entry.time)),
      deleted_at: null,
      alert_category: alert ? alert.category : null,
      alert_words: alert ? toDbJson(alert.words) : null,
      alerted_at: alert ? toDbTime(now) : null,
    };
  });
  // One statement per 100 rows keeps every chunk far below both dialects' parameter limits.
  await ctx.db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += 100) {
      await trx
        .insertInto('keystroke_lines')
        .values(rows.slice(start, start + 100))
        .execute();
    }
  });
  // after the answer, grouped with the child's other alerts of the window (notifications/child-writes.ts)
  if (alerts.some((alert) => alert !== null)) {
    notifyAboutChild(ctx, {
      trigger: 'activityAlert',
      parentId: ctx.parentId,
      childId: ctx.childId,
      at: now,
    });
  }
  return { success: true };
});

export default { ...resolver, replacesNulCharacters: true };
