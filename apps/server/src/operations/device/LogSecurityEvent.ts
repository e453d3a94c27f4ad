import { KNOWN_MAC_SECURITY_EVENTS } from '@keyward/contract/device';
import { fromDbBool, toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { notifyAboutChild } from '../../notifications/child-writes.ts';
import { newToken } from '../../services/tokens.ts';

const NOTIFYING_EVENTS: ReadonlySet<string> = new Set(KNOWN_MAC_SECURITY_EVENTS);

// server-behaviour §4.3: the event may concern another computer user of the same parent (e.g. a
// new macOS account on the same Mac); anything else is dropped without telling the device.
// Issue 19: budgeted per Mac and per child; the parent's notifications are grouped per child.
export default deviceResolver('LogSecurityEvent', async (input, ctx) => {
  await takeDeviceWriteBudget(ctx, 'securityEvents', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });
  const computerUser = await ctx.db
    .selectFrom('computer_users as cu')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .select(['cu.id', 'cu.is_admin', 'c.id as childId'])
    .where('cu.id', '=', input.deviceId)
    .where('c.parent_id', '=', ctx.parentId)
    .executeTakeFirst();
  if (!computerUser) {
    ctx.log.info(
      { deviceId: input.deviceId },
      'dropped a security event for a foreign computer user',
    );
    return { success: true };
  }
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('security_events')
    .values({
      id: newToken(),
      parent_id: ctx.parentId,
      computer_user_id: computerUser.id,
      event: input.event,
      detail: input.detail ?? null,
      ip_address: null,
      created_at: toDbTime(now),
    })
    .execute();
  // §6.1: a known Mac event of a macOS administrator account notifies the parent (no fallback)
  if (NOTIFYING_EVENTS.has(input.event) && fromDbBool(computerUser.is_admin)) {
    notifyAboutChild(ctx, {
      trigger: 'adminChildSecurityEvent',
      parentId: ctx.parentId,
      childId: computerUser.childId,
      at: now,
    });
  }
  return { success: true };
});
