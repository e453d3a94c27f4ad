import { toDbTime } from '../../db/values.ts';
import { resolvedUnlockRequestOf } from '../../devices/resolved-requests.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { unlockRequestAlreadyDecided } from '../../requests/decisions.ts';
import { ownedUnlockRequest } from '../ownership.ts';

// server-behaviour §3.5: the parent accepts or denies (never creates a key: the dashboard calls
// SaveKey first). The decision goes to the Mac that asked, and to no other. The first decision
// stands (issue 19, requests/decisions.ts): a decided request answers the contract's error.
export default dashboardResolver('UpdateUnlockRequest', async (input, ctx) => {
  const request = await ownedUnlockRequest(ctx.db, ctx.parentId, input.id);
  if (input.status === 'pending') {
    throw badRequest(
      'e5b1c7a3',
      'An unlock request cannot be set back to pending',
      'Choose whether to accept or deny this unlock request.',
    );
  }
  if (request.status !== 'pending') throw unlockRequestAlreadyDecided(request.status);
  const responseComment = input.responseComment?.trim() || null;
  await ctx.db.transaction().execute(async (trx) => {
    const decided = await trx
      .updateTable('unlock_requests')
      .set({
        status: input.status,
        response_comment: responseComment,
        updated_at: toDbTime(ctx.clock.now()),
      })
      .where('id', '=', request.id)
      // two parents (or two tabs) deciding at once: only the first decision is stored
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(decided.numUpdatedRows) !== 1) {
      const current = await trx
        .selectFrom('unlock_requests')
        .select('status')
        .where('id', '=', request.id)
        .executeTakeFirst();
      // thrown inside the transaction: nothing of this call is written, not even its audit entry
      if (!current) throw notFound('UnlockRequest');
      throw unlockRequestAlreadyDecided(current.status);
    }
  });
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
