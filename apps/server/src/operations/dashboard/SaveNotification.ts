import type { AdminNotificationTrigger } from '@keyward/contract/shared';
import { mine, personColumn } from '../../accounts/people.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import type { ParentContext } from '../../pairql/context.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { isAlreadyCreated, ownedNotification, ownedNotificationMethod } from '../ownership.ts';

const TRIGGER_WORDS: Record<AdminNotificationTrigger, string> = {
  unlockRequestSubmitted: 'unlock requests',
  suspendFilterRequestSubmitted: 'suspension requests',
  adminChildSecurityEvent: 'admin-child security events',
  activityAlert: 'alerts',
};

// server-behaviour §3.8: a rule "this trigger → this verified method". New rules take the client's
// id (an id already taken → badRequest); updates change method and trigger of an own rule. One
// (method, trigger) pair per parent: a second one → badRequest, nothing changed.
export default dashboardResolver('SaveNotification', async (input, ctx) => {
  // issue 12: rules and methods are the acting person's own (accounts/people.ts `mine`)
  const rule = input.isNew
    ? undefined
    : mine(ctx, await ownedNotification(ctx.db, ctx.parentId, input.id), 'Notification');
  const method = mine(
    ctx,
    await ownedNotificationMethod(ctx.db, ctx.parentId, input.methodId),
    'NotificationMethod',
  );
  if (input.isNew && (await isRepeatedCreate(ctx, input.id, method.id, input.trigger))) {
    return { success: true };
  }
  // a rule with this very id is this create sent again, not a second rule for the pair
  await refuseDuplicate(ctx, method.id, input.trigger, rule?.id ?? input.id);

  if (rule) {
    await ctx.db
      .transaction()
      .execute((trx) =>
        trx
          .updateTable('notifications')
          .set({ method_id: method.id, trigger: input.trigger })
          .where('id', '=', rule.id)
          .where('parent_id', '=', ctx.parentId)
          .execute(),
      );
    return { success: true };
  }

  const inserted = await ctx.db.transaction().execute((trx) =>
    trx
      .insertInto('notifications')
      .values({
        id: input.id,
        parent_id: ctx.parentId,
        person_id: personColumn(ctx),
        method_id: method.id,
        trigger: input.trigger,
        created_at: toDbTime(ctx.clock.now()),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst(),
  );
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
    // lost a race for the same pair, or the id is taken (by any parent's rule)
    if (await isRepeatedCreate(ctx, input.id, method.id, input.trigger)) return { success: true };
    await refuseDuplicate(ctx, method.id, input.trigger);
    throw badRequest(
      '6f2d8a17',
      `Notification id ${input.id} already exists`,
      'This notification could not be created. Please reload the page and try again.',
    );
  }
  return { success: true };
});

/** The same create sent again (a double click, a retry): the rule is already there (issue 20). */
async function isRepeatedCreate(
  ctx: ParentContext,
  id: string,
  methodId: string,
  trigger: AdminNotificationTrigger,
): Promise<boolean> {
  let existing: Awaited<ReturnType<typeof ownedNotification>> | undefined;
  const isOwn = await isAlreadyCreated(async () => {
    existing = await ownedNotification(ctx.db, ctx.parentId, id);
  });
  return isOwn && existing?.method_id === methodId && existing.trigger === trigger;
}

async function refuseDuplicate(
  ctx: ParentContext,
  methodId: string,
  trigger: AdminNotificationTrigger,
  exceptRuleId?: string,
) {
  let query = ctx.db
    .selectFrom('notifications')
    .select('id')
    .where('parent_id', '=', ctx.parentId)
    .where('method_id', '=', methodId)
    .where('trigger', '=', trigger);
  if (exceptRuleId) query = query.where('id', '!=', exceptRuleId);
  if (await query.executeTakeFirst()) {
    throw badRequest(
      'c93e0b52',
      'Duplicate notification (same method and trigger)',
      `You already have a notification for ${TRIGGER_WORDS[trigger]} through this method.`,
    );
  }
}
