import { pendingSuspensionToReuse } from '@keyward/domain/request-flood';
import { dialectOf } from '../../db/database.ts';
import { toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { iosResolver } from '../../pairql/resolver.ts';
import { lockDevice } from '../../requests/device-lock.ts';
import { checkRequestedSuspension } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §5: the iPhone or iPad asks for the filter to be suspended; the parent hears
// about it (suspendFilterRequestSubmitted) with a link to the device's page, grouped with the
// child's other requests (requests/notify.ts). Issue 19: budgeted per device and per child; while
// the device has a request pending (and not expired), a new one is answered with its id.
export default iosResolver('CreateSuspendFilterRequest', async (input, ctx) => {
  checkRequestedSuspension(input.duration);
  await takeDeviceWriteBudget(ctx, 'suspensionRequests', {
    deviceId: ctx.deviceId,
    childId: ctx.childId,
  });
  const now = ctx.clock.now();
  const at = toDbTime(now);
  const comment = input.comment?.trim() || null;
  const { id, isNew } = await ctx.db.transaction().execute(async (trx) => {
    await lockDevice(trx, dialectOf(ctx.config), { iosDeviceId: ctx.deviceId });
    const pending = await trx
      .selectFrom('ios_suspend_filter_requests')
      .select(['id', 'created_at as createdAt'])
      .where('device_id', '=', ctx.deviceId)
      .where('status', '=', 'pending')
      .execute();
    const reused = pendingSuspensionToReuse(pending, now);
    if (reused) return { id: reused.id, isNew: false };
    const created = newToken();
    await trx
      .insertInto('ios_suspend_filter_requests')
      .values({
        id: created,
        device_id: ctx.deviceId,
        status: 'pending',
        duration: input.duration,
        request_comment: comment,
        response_comment: null,
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
