import type { BROWSER_SECURITY_EVENT_NAMES } from '@keyward/domain/security-events';
import { HOUR, MINUTE, toDbTime } from '../db/values.ts';
import type { RequestContext } from '../pairql/context.ts';
import { notifyAboutChild } from '../notifications/child-writes.ts';
import { newToken } from '../services/tokens.ts';
import { takeDeviceWriteBudget } from './write-budgets.ts';

// Issue 22: Keyward for Chrome's tamper and health signals, as security events of the browser's
// computer user, each notified to the parent (trigger adminChildSecurityEvent): unlike a Mac's
// events, which notify only for a child with an administrator account, every browser event is one
// a child could cause to get around the filter. A signal repeated while nothing changed (the same
// event of the same browser within its repeat window) is recorded once.

export type BrowserSecurityEventName =
  (typeof BROWSER_SECURITY_EVENT_NAMES)[keyof typeof BROWSER_SECURITY_EVENT_NAMES];

/** A state that lasts (incognito not allowed, offline) is told every 6 hours at most. */
const REPEAT_WINDOW_MS: Record<BrowserSecurityEventName, number> = {
  browserIncognitoNotAllowed: 6 * HOUR,
  browserFilterOffline: 6 * HOUR,
  browserExtensionRemoved: 10 * MINUTE,
  browserSuspensionExpired: 10 * MINUTE,
  browserClockChanged: HOUR,
};

export async function recordBrowserSecurityEvent(
  ctx: RequestContext & { computerUserId: string; childId: string; parentId: string },
  event: BrowserSecurityEventName,
  detail?: string,
): Promise<boolean> {
  const now = ctx.clock.now();
  const recent = await ctx.db
    .selectFrom('security_events')
    .select('id')
    .where('computer_user_id', '=', ctx.computerUserId)
    .where('event', '=', event)
    .where('created_at', '>', toDbTime(new Date(now.getTime() - REPEAT_WINDOW_MS[event])))
    .executeTakeFirst();
  if (recent) return false;
  await takeDeviceWriteBudget(ctx, 'securityEvents', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });
  await ctx.db
    .insertInto('security_events')
    .values({
      id: newToken(),
      parent_id: ctx.parentId,
      computer_user_id: ctx.computerUserId,
      event,
      detail: detail ?? null,
      ip_address: null,
      created_at: toDbTime(now),
    })
    .execute();
  notifyAboutChild(ctx, {
    trigger: 'adminChildSecurityEvent',
    parentId: ctx.parentId,
    childId: ctx.childId,
    at: now,
  });
  return true;
}
