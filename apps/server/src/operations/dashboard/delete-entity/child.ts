import { recordSecurityEvent } from '../../../services/security-events.ts';
import { ownedChild } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2 `child`: the Macs hear `userDeleted` before the rows go (push targets are
// read from the database); the cascade removes computer users and with them their tokens, so the
// Macs are refused at once. Computers the child leaves without any computer user go too.
export default deleteEntityHandler(async (id, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, id);
  await ctx.services.push.toChildren([child.id], { case: 'userDeleted' });
  await ctx.db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('computer_users')
      .select('computer_id')
      .where('child_id', '=', child.id)
      .execute();
    await trx
      .deleteFrom('children')
      .where('id', '=', child.id)
      .where('parent_id', '=', ctx.parentId)
      .execute();
    const computerIds = [...new Set(used.map((row) => row.computer_id))];
    if (computerIds.length > 0) {
      await trx
        .deleteFrom('computers')
        .where('id', 'in', computerIds)
        .where('parent_id', '=', ctx.parentId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('computer_users')
                .select('computer_users.id')
                .whereRef('computer_users.computer_id', '=', 'computers.id'),
            ),
          ),
        )
        .execute();
    }
    await recordSecurityEvent(
      { ...ctx, db: trx },
      ctx.parentId,
      'childDeleted',
      `name: ${child.name}`,
    );
  });
});
