import { toDbJson, toDbTime } from '../../../db/values.ts';
import { newToken } from '../../../services/tokens.ts';
import { ownedParent } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// The parent deletes their own account (server-behaviour §3.2): the id must be the session
// parent. A deleted_entities record is written first, then the cascade removes everything. Every
// Mac of the family then hears `userDeleted`, which closes its push channel at once (issue 19:
// not at its next heartbeat); its tokens went with the cascade.
export default deleteEntityHandler(async (id, ctx) => {
  const parent = await ownedParent(ctx.db, ctx.parentId, id);
  const { password_hash: _secret, ...record } = parent;
  const macs = await ctx.db.transaction().execute(async (trx) => {
    const computerUsers = await trx
      .selectFrom('computer_users as cu')
      .innerJoin('children as c', 'c.id', 'cu.child_id')
      .select('cu.id')
      .where('c.parent_id', '=', parent.id)
      .execute();
    await trx
      .insertInto('deleted_entities')
      .values({
        id: newToken(),
        type: 'Admin',
        reason: 'self-deleted from use-case initial screen',
        data: toDbJson(record),
        created_at: toDbTime(ctx.clock.now()),
      })
      .execute();
    await trx.deleteFrom('parents').where('id', '=', parent.id).execute();
    return computerUsers.map((row) => row.id);
  });
  // after the commit: the ids come from the rows read above, not from the database
  await ctx.services.push.toComputerUsers(macs, { case: 'userDeleted' });
});
