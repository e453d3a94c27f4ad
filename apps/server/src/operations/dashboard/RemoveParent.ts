import { revokePersonSessions } from '../../accounts/people.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// Issue 12 (owner only: pairql/roles.ts). Removes a co-parent or revokes an invitation; their
// sessions end at once, their own notification rules and methods go with them.
export default dashboardResolver('RemoveParent', async (input, ctx) => {
  if (input.id === ctx.parentId) {
    throw badRequest(
      'c0fa0e18',
      'RemoveParent: the owner cannot be removed',
      "The account owner can't be removed.",
    );
  }
  const coParent = await ctx.db
    .selectFrom('co_parents')
    .select(['id', 'email'])
    .where('id', '=', input.id)
    .where('parent_id', '=', ctx.parentId)
    .executeTakeFirst();
  if (!coParent) throw notFound('Parent');
  await ctx.db.transaction().execute(async (trx) => {
    await revokePersonSessions({ ...ctx, db: trx }, coParent.id);
    await trx
      .deleteFrom('co_parents')
      .where('id', '=', coParent.id)
      .where('parent_id', '=', ctx.parentId)
      .execute();
    await recordSecurityEvent({ ...ctx, db: trx }, ctx.parentId, 'coParentRemoved', coParent.email);
  });
  return { success: true };
});
