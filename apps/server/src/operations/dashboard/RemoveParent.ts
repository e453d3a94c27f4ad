import { revokePersonSessions } from '../../accounts/people.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// Issue 12 (owner only: pairql/roles.ts). Removes a co-parent or revokes an invitation. Everything
// that let that person in or reach the family's data ends at once, in one transaction (issue 19):
// their sessions; their magic, reset and invitation links, notification rules and methods (they
// cascade with the co_parents row); their second factors and sign-in challenges; and their data
// exports, whose download links then answer like a missing export (the ZIPs are deleted after).
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
  const exports = await ctx.db.transaction().execute(async (trx) => {
    await revokePersonSessions({ ...ctx, db: trx }, coParent.id);
    const removed = await trx
      .deleteFrom('data_exports')
      .where('person_id', '=', coParent.id)
      .where('parent_id', '=', ctx.parentId)
      .returning('id')
      .execute();
    // second factors and challenges are keyed by person (no foreign key to co_parents)
    for (const table of [
      'webauthn_challenges',
      'second_factor_challenges',
      'passkeys',
      'recovery_codes',
      'totp_factors',
    ] as const) {
      await trx
        .deleteFrom(table)
        .where('person_id', '=', coParent.id)
        .where('parent_id', '=', ctx.parentId)
        .execute();
    }
    await trx
      .deleteFrom('co_parents')
      .where('id', '=', coParent.id)
      .where('parent_id', '=', ctx.parentId)
      .execute();
    await recordSecurityEvent({ ...ctx, db: trx }, ctx.parentId, 'coParentRemoved', coParent.email);
    return removed.map((row) => row.id);
  });
  if (exports.length > 0) {
    try {
      await ctx.services.storage.exports.remove(exports);
    } catch (error) {
      // the rows are gone: no link serves these files; the log names them for cleanup
      ctx.log.error(
        { err: error, exports },
        'could not delete the export files of a removed parent',
      );
    }
  }
  return { success: true };
});
