import { recordSecurityEvent } from '../../../services/security-events.ts';
import { ownedNotification } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2: an own notification rule; event `notificationDeleted`.
export default deleteEntityHandler(async (id, ctx) => {
  const rule = await ownedNotification(ctx.db, ctx.parentId, id);
  await ctx.db
    .deleteFrom('notifications')
    .where('id', '=', rule.id)
    .where('parent_id', '=', ctx.parentId)
    .execute();
  await recordSecurityEvent(ctx, ctx.parentId, 'notificationDeleted', `trigger: ${rule.trigger}`);
});
