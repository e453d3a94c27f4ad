import { toDbTime } from '../../db/values.ts';
import { resolvedUnlockRequestOf } from '../../devices/resolved-requests.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedUnlockRequest } from '../ownership.ts';

// server-behaviour §3.5: the parent accepts or denies (never creates a key: the dashboard calls
// SaveKey first). The decision goes to the Mac that asked, and to no other.
export default dashboardResolver('UpdateUnlockRequest', async (input, ctx) => {
  const request = await ownedUnlockRequest(ctx.db, ctx.parentId, input.id);
  if (input.status === 'pending') {
    throw badRequest(
      'e5b1c7a3',
      'An unlock request cannot be set back to pending',
      'Choose whether to accept or deny this unlock request.',
    );
  }
  const responseComment = input.responseComment?.trim() || null;
  await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('unlock_requests')
      .set({
        status: input.status,
        response_comment: responseComment,
        updated_at: toDbTime(ctx.clock.now()),
      })
      .where('id', '=', request.id)
      .execute(),
  );
  const decided = resolvedUnlockRequestOf({
    ...request,
    status: input.status,
    response_comment: responseComment,
  });
  await ctx.services.push.toComputerUsers([request.computer_user_id], {
    case: 'unlockRequestUpdated_v2',
    ...decided,
  });
  return { success: true };
});
