import {
  type NotifyContext,
  notifyParent,
  type ParentNotification,
} from '../notifications/dispatch.ts';

/**
 * Notifies the parent about something a child's device sent, after it was saved. Never throws:
 * the child's request is stored, and a notification problem must not fail it (§6.1).
 */
export async function notifyAboutChild(
  ctx: NotifyContext,
  childId: string,
  notification: (childName: string) => ParentNotification,
): Promise<void> {
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
}
