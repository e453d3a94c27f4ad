import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedParent } from '../ownership.ts';

// server-behaviour §3.4: a parent asks for a public keychain the catalogue lacks. The request is
// kept for the operator and emailed to OPERATOR_EMAIL when configured (else only logged).
export default dashboardResolver('RequestPublicKeychain', async (input, ctx) => {
  const searchQuery = input.searchQuery.trim();
  const description = input.description.trim();
  if (description === '') {
    throw badRequest(
      'fac5c951',
      'Keychain request description is blank',
      'Please describe the keychain you need.',
    );
  }
  const parent = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  await ctx.db.transaction().execute((trx) =>
    trx
      .insertInto('keychain_requests')
      .values({
        id: newToken(),
        parent_id: parent.id,
        search_query: searchQuery,
        description,
        created_at: toDbTime(ctx.clock.now()),
      })
      .execute(),
  );

  const request = { parentEmail: parent.email, searchQuery, description };
  const operator = ctx.config.operatorEmail;
  if (operator === undefined) {
    ctx.log.info(request, 'public keychain requested (no OPERATOR_EMAIL configured)');
    return { success: true };
  }
  try {
    await ctx.services.email.send('keychain-request', operator, request);
  } catch (error) {
    // the request is stored; the operator can still find it
    ctx.log.error({ err: error, ...request }, 'could not email the public keychain request');
  }
  return { success: true };
});
