import type { PlainTimeWindow } from '@keyward/contract/shared';
import { BROWSER_SECURITY_EVENT_NAMES } from '@keyward/domain/security-events';
import { fromDbBool, fromDbJson, toDbTime } from '../../db/values.ts';
import { activeBrowserSuspension, browserKeychains } from '../../devices/browsers.ts';
import { touchPresence } from '../../devices/presence.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { recordBrowserSecurityEvent } from '../../devices/browser-security-events.ts';

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
    .select([
      'name',
      'keylogging_enabled',
      'screenshots_enabled',
      'screenshots_frequency',
      'screenshots_resolution',
      'downtime',
    ])
    .where('id', '=', ctx.childId)
    .executeTakeFirstOrThrow();
  const keylogging = fromDbBool(child.keylogging_enabled);
  const [keychains, suspension] = await Promise.all([
    browserKeychains(ctx.db, ctx.childId, now),
    activeBrowserSuspension(ctx.db, ctx.computerUserId, keylogging, now),
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
    serverTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
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
  };
});
