import {
  type NotifyContext,
  notifyParent,
  type ParentNotification,
} from '../notifications/dispatch.ts';

// Parent notifications about what a child's device sent (§6.1) are delivered AFTER the device's
// answer: a slow text, Slack or email provider (up to 15 s) must not hold the child's Mac or iPhone.
// Each delivery is tracked until it ends, so the server's graceful shutdown (app.ts, onClose) waits
// for the deliveries still under way and none is lost to a restart, and tests await them with
// `notificationsDelivered()` instead of sleeping. A delivery never throws: a failure is logged at
// error level (notifications/dispatch.ts logs each channel's own failure).

const inFlight = new Set<Promise<void>>();

/** Starts a delivery in the background and tracks it until it ends. */
function track(delivery: Promise<void>): void {
  inFlight.add(delivery);
  void delivery.finally(() => inFlight.delete(delivery));
}

/** Resolves when every delivery started by this process so far (and any started meanwhile) has ended. */
export async function notificationsDelivered(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/**
 * Notifies the parents about something a child's device sent, after it was saved, without making
 * the device wait. Never throws: the child's request is stored, and a notification problem must
 * not fail it (§6.1).
 */
export function notifyAboutChild(
  ctx: NotifyContext,
  childId: string,
  notification: (childName: string) => ParentNotification,
): void {
  track(
    (async () => {
      try {
        const child = await ctx.db
          .selectFrom('children')
          .select('name')
          .where('id', '=', childId)
          .executeTakeFirstOrThrow();
        await notifyParent(ctx, notification(child.name));
      } catch (error) {
        ctx.log.error({ err: error, childId }, 'parent notification failed');
      }
    })(),
  );
}

/** Notifies the parents in the background, tracked like `notifyAboutChild` (the name is known). */
export function notifyInBackground(ctx: NotifyContext, notification: ParentNotification): void {
  track(
    notifyParent(ctx, notification).catch((error) => {
      ctx.log.error(
        { err: error, trigger: notification.trigger, parentId: notification.parentId },
        'parent notification failed',
      );
    }),
  );
}
