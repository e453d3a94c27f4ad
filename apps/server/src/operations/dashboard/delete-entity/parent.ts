import { toDbJson, toDbTime } from '../../../db/values.ts';
import { newToken } from '../../../services/tokens.ts';
import { ownedParent } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// The parent deletes their own account (server-behaviour §3.2): the id must be the session
// parent. A deleted_entities record is written first, then the cascade removes everything.
export default deleteEntityHandler(async (id, ctx) => {
  const parent = await ownedParent(ctx.db, ctx.parentId, id);
  const { password_hash: _secret, ...record } = parent;
  await ctx.db.transaction().execute(async (trx) => {
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
  });
});
