import { toDbJson, toDbTime } from '../../db/values.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { checkRequestedSuspension } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3: the child asks for the filter to be suspended for `duration` seconds
// (scope always unrestricted in this version). The parent is notified after the insert.
export default deviceResolver('CreateSuspendFilterRequest_v2', async (input, ctx) => {
  checkRequestedSuspension(input.duration);
  const at = toDbTime(ctx.clock.now());
  const id = newToken();
  const comment = input.comment?.trim() || null;
  await ctx.db
    .insertInto('mac_suspend_filter_requests')
    .values({
      id,
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

  notifyAboutChild(ctx, ctx.childId, (childName) => ({
    trigger: 'suspendFilterRequestSubmitted',
    parentId: ctx.parentId,
    childId: ctx.childId,
    childName,
    requestId: id,
    durationSeconds: input.duration,
    comment,
  }));
  return id;
});
