import { ownedBlockRule } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2: a custom block rule of an own iOS device.
export default deleteEntityHandler(async (id, ctx) => {
  const rule = await ownedBlockRule(ctx.db, ctx.parentId, id);
  await ctx.db.deleteFrom('ios_block_rules').where('id', '=', rule.id).execute();
});
