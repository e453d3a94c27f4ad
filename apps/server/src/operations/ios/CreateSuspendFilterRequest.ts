import { toDbTime } from '../../db/values.ts';
import { iosResolver } from '../../pairql/resolver.ts';
import { checkRequestedSuspension } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §5: the iPhone or iPad asks for the filter to be suspended; the parent hears
// about it (suspendFilterRequestSubmitted) with a link to the device's page.
export default iosResolver('CreateSuspendFilterRequest', async (input, ctx) => {
  checkRequestedSuspension(input.duration);
  const at = toDbTime(ctx.clock.now());
  const id = newToken();
  const comment = input.comment?.trim() || null;
  await ctx.db
    .insertInto('ios_suspend_filter_requests')
    .values({
      id,
      device_id: ctx.deviceId,
      status: 'pending',
      duration: input.duration,
      request_comment: comment,
      response_comment: null,
      created_at: at,
      updated_at: at,
    })
    .execute();

  notifyAboutChild(ctx, ctx.childId, (childName) => ({
    trigger: 'suspendFilterRequestSubmitted',
    parentId: ctx.parentId,
    childId: ctx.childId,
    childName,
    requestId: id,
    durationSeconds: input.duration,
    comment,
    path: `/ios-devices/${ctx.deviceId}`,
  }));
  return id;
});
