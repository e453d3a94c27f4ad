import { addMs, DAY, toDbTime } from '../../db/values.ts';
import { serverError } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../services/rate-limit.ts';
import { newSixDigitCode, newToken } from '../../services/tokens.ts';
import { ownedChild } from '../ownership.ts';

const CODE_LIFETIME_MS = 2 * DAY;
const ATTEMPTS = 20;

// server-behaviour §3.3: a 6-digit code the parent types into the child's Mac (or iPhone) app.
// Only its HMAC is stored; ConnectUser/ConnectDevice delete it on first lookup.
export default dashboardResolver('CreatePendingAppConnection', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.userId);
  const { limit, windowSeconds } = RATE_LIMITS.pendingAppConnectionPerParent;
  await ctx.services.rateLimit.consume(
    `appConnection:parent:${ctx.parentId}`,
    limit,
    windowSeconds,
  );

  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    // Expired codes can never connect anything; clearing them frees their numbers.
    await trx.deleteFrom('connection_codes').where('expires_at', '<=', toDbTime(now)).execute();

    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const code = newSixDigitCode();
      const result = await trx
        .insertInto('connection_codes')
        .values({
          id: newToken(),
          code_hash: ctx.services.tokens.hmac(code),
          child_id: child.id,
          expires_at: toDbTime(addMs(now, CODE_LIFETIME_MS)),
          created_at: toDbTime(now),
        })
        .onConflict((oc) => oc.column('code_hash').doNothing())
        .executeTakeFirst();
      // 0 rows: the number is held by an outstanding code; draw another.
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return { code };
    }
    throw serverError('30519ea3', 'Could not find a free connection code');
  });
});
