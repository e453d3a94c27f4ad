import { ownedAnnouncement } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2: an own announcement, hard-deleted (this is how the parent dismisses it,
// for this parent only: every parent has rows of their own).
export default deleteEntityHandler(async (id, ctx) => {
  const announcement = await ownedAnnouncement(ctx.db, ctx.parentId, id);
  await ctx.db
    .transaction()
    .execute((trx) =>
      trx
        .deleteFrom('announcements')
        .where('id', '=', announcement.id)
        .where('parent_id', '=', ctx.parentId)
        .execute(),
    );
});
