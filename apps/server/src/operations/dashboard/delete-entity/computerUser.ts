import { recordSecurityEvent } from '../../../services/security-events.ts';
import { ownedComputerUser } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2 `computerUser` (unlinking one Mac account from a child): push
// `userDeleted` first, then delete; its Mac tokens cascade away, so they stop working at once
// (no grace period). A computer with no computer user left is deleted as well.
export default deleteEntityHandler(async (id, ctx) => {
  const computerUser = await ownedComputerUser(ctx.db, ctx.parentId, id);
  const described = await ctx.db
    .selectFrom('children as ch')
    .innerJoin('computers as c', 'c.parent_id', 'ch.parent_id')
    .select(['ch.name', 'c.serial_number'])
    .where('ch.id', '=', computerUser.child_id)
    .where('c.id', '=', computerUser.computer_id)
    .executeTakeFirst();

  await ctx.services.push.toComputerUsers([computerUser.id], { case: 'userDeleted' });
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('computer_users').where('id', '=', computerUser.id).execute();
    const remaining = await trx
      .selectFrom('computer_users')
      .select('id')
      .where('computer_id', '=', computerUser.computer_id)
      .executeTakeFirst();
    if (!remaining) {
      await trx
        .deleteFrom('computers')
        .where('id', '=', computerUser.computer_id)
        .where('parent_id', '=', ctx.parentId)
        .execute();
    }
    await recordSecurityEvent(
      { ...ctx, db: trx },
      ctx.parentId,
      'childComputerDeleted',
      `child: ${described?.name ?? 'unknown'}, computer serial: ${described?.serial_number ?? 'unknown'}`,
    );
  });
});
