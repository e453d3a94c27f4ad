import { toDbJson, toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { MAX_SUSPENSION_SECONDS } from '../../requests/limits.ts';
import { notifyAboutChild } from '../../requests/notify.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3: the child asks for the filter to be suspended for `duration` seconds
// (scope always unrestricted in this version). The parent is notified after the insert.
export default deviceResolver('CreateSuspendFilterRequest_v2', async (input, ctx) => {
  if (input.duration > MAX_SUSPENSION_SECONDS) {
    throw badRequest(
      'f4a7c2e9',
      `duration ${input.duration} s is over ${MAX_SUSPENSION_SECONDS} s`,
      'A suspension can last at most 7 days. Ask for a shorter time.',
    );
  }
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

  await notifyAboutChild(ctx, ctx.childId, (childName) => ({
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
