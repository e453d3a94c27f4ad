import type { BlockRule } from '@keyward/contract/shared';
import { describeBlockRule } from '@keyward/domain/block-rules';
import { fromDbJson } from '../../../db/values.ts';
import { recordSecurityEvent } from '../../../services/security-events.ts';
import { ownedBlockRule } from '../../ownership.ts';
import { deleteEntityHandler } from './handler.ts';

// server-behaviour §3.2: a custom block rule of an own iOS device; event `iosBlockRuleDeleted`.
export default deleteEntityHandler(async (id, ctx) => {
  const rule = await ownedBlockRule(ctx.db, ctx.parentId, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('ios_block_rules').where('id', '=', rule.id).execute();
    await recordSecurityEvent(
      { ...ctx, db: trx },
      ctx.parentId,
      'iosBlockRuleDeleted',
      `rule: ${describeBlockRule(fromDbJson<BlockRule>(rule.rule))}`,
    );
  });
});
