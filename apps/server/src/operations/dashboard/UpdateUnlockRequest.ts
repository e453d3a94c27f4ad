import { lockChildRow } from '../../db/conflicts.ts';
import { toDbTime } from '../../db/values.ts';
import { resolvedUnlockRequestOf } from '../../devices/resolved-requests.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { unlockRequestAlreadyDecided } from '../../requests/decisions.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedKeychain, ownedUnlockRequest } from '../ownership.ts';

// server-behaviour §3.5: the parent accepts or denies (never creates a key: the dashboard calls
// SaveKey first). The decision goes to the Mac that asked, and to no other. The first decision
// stands (issue 19, requests/decisions.ts): a decided request answers the contract's error.
//
// Issue 32: an accept may name the own keychain the dashboard just put the key in; a child who does
// not have that keychain is given it (always, no schedule) in the same transaction, so an accepted
// request always unlocks something. A keychain the child already has keeps its assignment (and
// schedule) as it is: the dashboard says when a schedule keeps it from applying now.
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
  const keychain =
    input.keychainId && input.status === 'accepted'
      ? await ownedKeychain(ctx.db, ctx.parentId, input.keychainId)
      : null;
  const responseComment = input.responseComment?.trim() || null;
  let gaveKeychain = false;
  await ctx.db.transaction().execute(async (trx) => {
    if (keychain) await lockChildRow(trx, request.child_id);
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
    if (keychain) {
      const has = await trx
        .selectFrom('child_keychains')
        .select('id')
        .where('child_id', '=', request.child_id)
        .where('keychain_id', '=', keychain.id)
        .executeTakeFirst();
      if (!has) {
        await trx
          .insertInto('child_keychains')
          .values({
            id: newToken(),
            child_id: request.child_id,
            keychain_id: keychain.id,
            schedule: null,
            created_at: toDbTime(ctx.clock.now()),
          })
          .execute();
        gaveKeychain = true;
      }
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
  // the child's Macs check in again and get the new keychain's keys
  if (gaveKeychain) await ctx.services.push.toChildren([request.child_id], { case: 'userUpdated' });
  return { success: true };
});
