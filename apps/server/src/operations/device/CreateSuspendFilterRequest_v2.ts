import { pendingSuspensionToReuse } from '@keyward/domain/request-flood';
import { dialectOf } from '../../db/database.ts';
import { toDbJson, toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { lockDevice } from '../../requests/device-lock.ts';
import { checkRequestedSuspension } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3: the child asks for the filter to be suspended for `duration` seconds
// (scope always unrestricted in this version). The parent is notified after the insert, grouped
// with the child's other requests (requests/notify.ts). Issue 19: budgeted per Mac and per child;
// while this Mac has a request pending (and not expired), a new one is answered with its id.
export default deviceResolver('CreateSuspendFilterRequest_v2', async (input, ctx) => {
  checkRequestedSuspension(input.duration);
  await takeDeviceWriteBudget(ctx, 'suspensionRequests', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });
  const now = ctx.clock.now();
  const at = toDbTime(now);
  const comment = input.comment?.trim() || null;
  const { id, isNew } = await ctx.db.transaction().execute(async (trx) => {
    await lockDevice(trx, dialectOf(ctx.config), { computerUserId: ctx.computerUserId });
    const pending = await trx
      .selectFrom('mac_suspend_filter_requests')
      .select(['id', 'created_at as createdAt'])
      .where('computer_user_id', '=', ctx.computerUserId)
      .where('status', '=', 'pending')
      .execute();
    const reused = pendingSuspensionToReuse(pending, now);
    if (reused) return { id: reused.id, isNew: false };
    const created = newToken();
    await trx
      .insertInto('mac_suspend_filter_requests')
      .values({
        id: created,
        computer_user_id: ctx.computerUserId,
        status: 'pending',
        scope: toDbJson({ type: 'unrestricted' }),
        duration: input.duration,
        request_comment: comment,
        response_comment: null,
        extra_monitoring: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return { id: created, isNew: true };
  });

  if (isNew) {
    notifyAboutChild(ctx, {
      trigger: 'suspendFilterRequestSubmitted',
      parentId: ctx.parentId,
      childId: ctx.childId,
      at: now,
    });
  }
  return id;
});
