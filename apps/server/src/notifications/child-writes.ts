import {
  BROWSER_SECURITY_EVENT_NAMES,
  DNS_SECURITY_EVENT_NAMES,
} from '@keyward/domain/security-events';
import type { AdminNotificationTrigger } from '@keyward/contract/shared';
import { KNOWN_MAC_SECURITY_EVENTS } from '@keyward/contract/device';
import { ALERT_CATEGORIES } from '@keyward/domain/alert-categories';
import { groupedRequestIds, notificationWindow } from '@keyward/domain/request-flood';
import { toDbBool, toDbTime } from '../db/values.ts';
import { type NotifyContext, notifyParent, type ParentNotification } from './dispatch.ts';
import type { Clock } from '../services/clock.ts';

// Parent notifications about what a child's device sent (§6.1) are delivered AFTER the device's
// answer: a slow text, Slack or email provider (up to 15 s) must not hold the child's Mac or iPhone.
// Each delivery is tracked until it ends, so the server's graceful shutdown (app.ts, onClose) waits
// for the deliveries still under way and none is lost to a restart, and tests await them with
// `notificationsDelivered()` instead of sleeping. A delivery never throws: a failure is logged at
// error level (notifications/dispatch.ts logs each channel's own failure).
//
// Issue 19: what one child sends within a grouping window (NOTIFICATION_GROUP_SECONDS, whole
// windows on the clock) is ONE notification per trigger, sent when the window ends: "Sam sent 6
// unlock requests". The first write of the window, as counted in the database (rate_limit_counters,
// shared by every server instance), waits for the window's end and then tells about every row of
// the window; the others send nothing. Requests the parents already decided meanwhile are left out,
// and nothing is sent when none is left. Shutting down (and `notificationsDelivered()`) sends the
// waiting groups at once.

const inFlight = new Set<Promise<void>>();

/** Starts a delivery in the background and tracks it until it ends. */
function track(delivery: Promise<void>): void {
  inFlight.add(delivery);
  void delivery.finally(() => inFlight.delete(delivery));
}

/** While > 0, grouped notifications go out at once instead of at their window's end. */
let flushes = 0;
const sleepers = new Set<() => void>();

/**
 * Sends the grouped notifications still waiting for their window's end, and resolves when every
 * delivery started by this process so far (and any started meanwhile) has ended.
 */
export async function notificationsDelivered(): Promise<void> {
  flushes += 1;
  try {
    for (const wake of [...sleepers]) wake();
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  } finally {
    flushes -= 1;
  }
}

/** Rows another instance wrote at the window's end are committed this much later at most. */
const COMMIT_GRACE_MS = 2000;
/** The wait looks at the clock this often (a test clock moves without timers). */
const CLOCK_CHECK_MS = 1000;

function nap(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      sleepers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    sleepers.add(wake);
  });
}

async function waitUntil(clock: Clock, whenMs: number): Promise<void> {
  while (flushes === 0) {
    const left = whenMs - clock.now().getTime();
    if (left <= 0) return;
    await nap(Math.min(left, CLOCK_CHECK_MS));
  }
}

export interface ChildWrite {
  trigger: AdminNotificationTrigger;
  parentId: string;
  childId: string;
  /** The instant the rows were stored with (their created_at). */
  at: Date;
  /** This write's own rows, listed first in the message, in this order. */
  ids?: string[];
  /** issue 34: requests for more time (told under the suspension requests' trigger) */
  moreTime?: true;
}

/**
 * Tells the parents, after the device's answer and grouped with the child's other writes of the
 * same window, about rows a child's device stored. Never throws: the child's request is stored,
 * and a notification problem must not fail it (§6.1).
 */
export function notifyAboutChild(ctx: NotifyContext, write: ChildWrite): void {
  track(
    (async () => {
      try {
        const windowSeconds = ctx.config.notificationGroupSeconds;
        const { start, end } = notificationWindow(write.at, windowSeconds);
        const writes = await ctx.services.rateLimit.hit(
          `notify-group:${write.moreTime ? 'moreTime' : write.trigger}:child:${write.childId}`,
          windowSeconds,
          { at: write.at },
        );
        // another write of this window is the one that notifies
        if (writes !== 1) return;
        await waitUntil(ctx.clock, end.getTime() + COMMIT_GRACE_MS);
        const notification = await groupedNotification(ctx, write, {
          from: toDbTime(start),
          to: toDbTime(end),
        });
        if (notification) await notifyParent(ctx, notification);
      } catch (error) {
        ctx.log.error(
          { err: error, childId: write.childId, trigger: write.trigger },
          'parent notification failed',
        );
      }
    })(),
  );
}

interface Window {
  /** inclusive */
  from: string;
  /** exclusive */
  to: string;
}

const NOTIFYING_SECURITY_EVENTS: readonly string[] = KNOWN_MAC_SECURITY_EVENTS;
const BROWSER_NOTIFYING_EVENTS: readonly string[] = [
  ...Object.values(BROWSER_SECURITY_EVENT_NAMES),
  // issue 33: a DNS device falling silent notifies whoever the child is
  ...Object.values(DNS_SECURITY_EVENT_NAMES),
];

/** The one notification about the child's rows of the window; undefined when there is nothing. */
async function groupedNotification(
  ctx: NotifyContext,
  write: ChildWrite,
  window: Window,
): Promise<ParentNotification | undefined> {
  const child = await ctx.db
    .selectFrom('children')
    .select('name')
    .where('id', '=', write.childId)
    .where('parent_id', '=', write.parentId)
    .executeTakeFirst();
  if (!child) return undefined;
  const about = { parentId: write.parentId, childId: write.childId, childName: child.name };

  switch (write.trigger) {
    case 'unlockRequestSubmitted': {
      const rows = await ctx.db
        .selectFrom('unlock_requests as r')
        .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
        .select('r.id')
        .where('cu.child_id', '=', write.childId)
        .where('r.status', '=', 'pending')
        .where('r.created_at', '>=', window.from)
        .where('r.created_at', '<', window.to)
        .orderBy('r.created_at')
        .orderBy('r.id')
        .execute();
      if (rows.length === 0) return undefined;
      const requestIds = groupedRequestIds(
        write.ids ?? [],
        rows.map((row) => row.id),
      );
      return { trigger: 'unlockRequestSubmitted', ...about, requestIds };
    }
    case 'suspendFilterRequestSubmitted': {
      if (write.moreTime) {
        const asked = await ctx.db
          .selectFrom('more_time_requests')
          .select(['id', 'requested_minutes', 'request_comment'])
          .where('child_id', '=', write.childId)
          .where('status', '=', 'pending')
          .where('created_at', '>=', window.from)
          .where('created_at', '<', window.to)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        const last = asked.at(-1);
        if (!last) return undefined;
        return {
          trigger: 'suspendFilterRequestSubmitted',
          ...about,
          requestId: last.id,
          durationSeconds: last.requested_minutes * 60,
          comment: last.request_comment,
          moreTimeMinutes: last.requested_minutes,
          path: '/inbox',
          ...(asked.length > 1 ? { count: asked.length } : {}),
        };
      }
      const mac = await ctx.db
        .selectFrom('mac_suspend_filter_requests as r')
        .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
        .select(['r.id', 'r.created_at', 'r.duration', 'r.request_comment'])
        .where('cu.child_id', '=', write.childId)
        .where('r.status', '=', 'pending')
        .where('r.created_at', '>=', window.from)
        .where('r.created_at', '<', window.to)
        .execute();
      const ios = await ctx.db
        .selectFrom('ios_suspend_filter_requests as r')
        .innerJoin('ios_devices as d', 'd.id', 'r.device_id')
        .select(['r.id', 'r.created_at', 'r.duration', 'r.request_comment', 'd.id as deviceId'])
        .where('d.child_id', '=', write.childId)
        .where('r.status', '=', 'pending')
        .where('r.created_at', '>=', window.from)
        .where('r.created_at', '<', window.to)
        .execute();
      const rows = [...mac.map((row) => ({ ...row, deviceId: null })), ...ios].sort(
        (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
      );
      const latest = rows.at(-1);
      if (!latest) return undefined;
      return {
        trigger: 'suspendFilterRequestSubmitted',
        ...about,
        requestId: latest.id,
        durationSeconds: latest.duration,
        comment: latest.request_comment,
        ...(latest.deviceId ? { path: `/ios-devices/${latest.deviceId}` } : {}),
        ...(rows.length > 1 ? { count: rows.length } : {}),
      };
    }
    case 'adminChildSecurityEvent': {
      const rows = await ctx.db
        .selectFrom('security_events as e')
        .innerJoin('computer_users as cu', 'cu.id', 'e.computer_user_id')
        .select(['e.event', 'e.detail'])
        .where('e.parent_id', '=', write.parentId)
        .where('cu.child_id', '=', write.childId)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('cu.is_admin', '=', toDbBool(true)),
              eb('e.event', 'in', NOTIFYING_SECURITY_EVENTS),
            ]),
            // issue 22: a browser's tamper signals (and issue 33: a DNS device's silence) notify
            // whoever the child is
            eb('e.event', 'in', BROWSER_NOTIFYING_EVENTS),
          ]),
        )
        .where('e.created_at', '>=', window.from)
        .where('e.created_at', '<', window.to)
        .orderBy('e.created_at')
        .orderBy('e.id')
        .execute();
      const latest = rows.at(-1);
      if (!latest) return undefined;
      return {
        trigger: 'adminChildSecurityEvent',
        ...about,
        event: latest.event,
        detail: latest.detail,
        ...(rows.length > 1 ? { count: rows.length } : {}),
      };
    }
    case 'activityAlert': {
      // issue 24: lines alerted in the window (by the server's time of alerting, not the Mac's
      // time of typing) and still flagged and unreviewed
      const rows = await ctx.db
        .selectFrom('keystroke_lines as k')
        .innerJoin('computer_users as cu', 'cu.id', 'k.computer_user_id')
        .select('k.alert_category')
        .where('cu.child_id', '=', write.childId)
        .where('k.alert_category', 'is not', null)
        .where('k.flagged', 'is not', null)
        .where('k.deleted_at', 'is', null)
        .where('k.alerted_at', '>=', window.from)
        .where('k.alerted_at', '<', window.to)
        .execute();
      if (rows.length === 0) return undefined;
      const found = new Set(rows.map((row) => row.alert_category));
      return {
        trigger: 'activityAlert',
        ...about,
        count: rows.length,
        categories: ALERT_CATEGORIES.filter((category) => found.has(category)),
      };
    }
  }
}
