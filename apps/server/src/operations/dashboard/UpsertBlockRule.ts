import { blockRuleProblem } from '@keyward/domain/block-rules';
import { toDbJson, toDbTime } from '../../db/values.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedBlockRule, ownedIosDevice } from '../ownership.ts';

// server-behaviour §3.11: a custom rule of an own iOS device. With an id, that rule must belong to
// the same device and is replaced; without, a new rule. Output: the rule id.
export default dashboardResolver('UpsertBlockRule', async (input, ctx) => {
  const device = await ownedIosDevice(ctx.db, ctx.parentId, input.deviceId);
  const problem = blockRuleProblem(input.rule);
  if (problem) throw badRequest('5a9d3e71', `rule: ${problem}`, problem);
  const at = toDbTime(ctx.clock.now());

  if (input.id) {
    const rule = await ownedBlockRule(ctx.db, ctx.parentId, input.id);
    if (rule.device_id !== device.id) throw notFound('Block rule');
    await ctx.db.transaction().execute((trx) =>
      trx
        .updateTable('ios_block_rules')
        .set({ rule: toDbJson(input.rule), updated_at: at })
        .where('id', '=', rule.id)
        .execute(),
    );
    return rule.id;
  }

  // the transaction answers the new id: the audit entry names the rule it added
  return ctx.db.transaction().execute(async (trx) => {
    const id = newToken();
    await trx
      .insertInto('ios_block_rules')
      .values({
        id,
        device_id: device.id,
        group_id: null,
        vendor_id: null,
        rule: toDbJson(input.rule),
        comment: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  });
});
