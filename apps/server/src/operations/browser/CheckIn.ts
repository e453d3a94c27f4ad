import type { PlainTimeWindow } from '@keyward/contract/shared';
import { BROWSER_SECURITY_EVENT_NAMES } from '@keyward/domain/security-events';
import { fromDbBool, fromDbJson, toDbTime } from '../../db/values.ts';
import { activeBrowserSuspension, browserKeychains } from '../../devices/browsers.ts';
import { touchPresence } from '../../devices/presence.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { recordBrowserSecurityEvent } from '../../devices/browser-security-events.ts';
import {
  browserScreenTime,
  familyTimeZone,
  isoSeconds,
  recordUsedMinutes,
  screenTimeSettings,
} from '../../children/screen-time.ts';

// Issue 22: what the browser filters with. The extension compiles the keys into its own rules
// (packages/domain browser-rules), so schedules, expirations, downtime and the suspension's end
// take effect on time even when it cannot reach the server; it checks in again when the server
// pushes `rulesChanged`, and every CHECK_IN_EVERY_SECONDS when the push channel is down.

export const CHECK_IN_EVERY_SECONDS = 300;

export default browserResolver('CheckIn', async (input, ctx) => {
  // each check-in writes the browser's presence: an extension stuck in a loop is refused (429)
  await takeDeviceWriteBudget(ctx, 'browserCheckIns', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });
  const now = ctx.clock.now();
  const child = await ctx.db
    .selectFrom('children')
    .innerJoin('parents', 'parents.id', 'children.parent_id')
    .select([
      'children.id',
      'parents.time_zone',
      'screen_time_allowance',
      'screen_time_exempt',
      'paused_at',
      'paused_until',
      'name',
      'keylogging_enabled',
      'screenshots_enabled',
      'screenshots_frequency',
      'screenshots_resolution',
      'downtime',
    ])
    .where('children.id', '=', ctx.childId)
    .executeTakeFirstOrThrow();
  // issue 34: the minutes counted since the last check-in, before today's total is read
  if (input.usedMinutes && input.usedMinutes.length > 0) {
    const computer = await ctx.db
      .selectFrom('computer_users')
      .select('created_at')
      .where('id', '=', ctx.computerUserId)
      .executeTakeFirstOrThrow();
    await recordUsedMinutes(
      ctx.db,
      {
        computerUserId: ctx.computerUserId,
        childId: ctx.childId,
        connectedAt: new Date(computer.created_at),
      },
      input.usedMinutes,
      now,
    );
  }
  const timeZone = familyTimeZone(child.time_zone);
  const settings = screenTimeSettings(child, timeZone, now);
  const keylogging = fromDbBool(child.keylogging_enabled);
  const [keychains, suspension, screenTime] = await Promise.all([
    browserKeychains(ctx.db, ctx.childId, now),
    activeBrowserSuspension(ctx.db, ctx.computerUserId, keylogging, now),
    browserScreenTime(ctx.db, child, timeZone, now),
  ]);

  const at = toDbTime(now);
  await ctx.db
    .updateTable('computers')
    .set({
      filter_version: input.extensionVersion,
      os_version: input.browserVersion,
      updated_at: at,
    })
    .where('id', '=', ctx.computerId)
    .where((eb) =>
      eb.or([
        eb('filter_version', 'is', null),
        eb('filter_version', '!=', input.extensionVersion),
        eb('os_version', 'is', null),
        eb('os_version', '!=', input.browserVersion),
      ]),
    )
    .execute();
  await ctx.db
    .updateTable('computer_users')
    .set({ app_version: input.extensionVersion, updated_at: at })
    .where('id', '=', ctx.computerUserId)
    .where('app_version', '!=', input.extensionVersion)
    .execute();
  await touchPresence(ctx.db, ctx.computerUserId, now);
  if (!input.incognitoAllowed) {
    await recordBrowserSecurityEvent(ctx, BROWSER_SECURITY_EVENT_NAMES.incognitoNotAllowed);
  }

  return {
    childName: child.name,
    deviceId: ctx.computerUserId,
    serverTime: isoSeconds(now),
    keychains,
    ...(child.downtime === null ? {} : { downtime: fromDbJson<PlainTimeWindow>(child.downtime) }),
    ...(suspension ? { suspension } : {}),
    monitoring: {
      screenshots: fromDbBool(child.screenshots_enabled)
        ? {
            enabled: true,
            everySeconds: child.screenshots_frequency,
            width: child.screenshots_resolution,
          }
        : { enabled: false },
      keylogging,
    },
    checkInEverySeconds: CHECK_IN_EVERY_SECONDS,
    ...(screenTime ? { screenTime } : {}),
    ...(settings.pause ? { pause: settings.pause } : {}),
  };
});
