import type { Db } from '../../db/database.ts';
import { addMs, fromDbInt, toDbTime } from '../../db/values.ts';
import { serverError, tooManyRequests } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { CONNECTION_CODES, RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { newSixDigitCode, newToken } from '../../services/tokens.ts';
import { ownedChild } from '../ownership.ts';

const ATTEMPTS = 20;

// server-behaviour §3.3: a 6-digit code the parent types into the child's Mac (or iPhone) app.
// Only its HMAC is stored; ConnectUser/ConnectDevice delete it on first lookup. Issue 19: a code
// lives an hour (the parent is at the device), a family has at most a few outstanding (a new one
// revokes the oldest beyond them), and all families together a bounded number, so a guess finds
// one with a bounded chance (devices/connection-codes.ts budgets the guesses).
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

    const outstanding = await trx
      .selectFrom('connection_codes')
      .select((eb) => [eb.fn.countAll().as('count'), eb.fn.min('expires_at').as('firstExpiry')])
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (fromDbInt(outstanding.count) >= CONNECTION_CODES.outstandingEverywhere) {
      const firstExpiry = outstanding.firstExpiry ? Date.parse(String(outstanding.firstExpiry)) : 0;
      throw tooManyRequests(Math.max(1, (firstExpiry - now.getTime()) / 1000));
    }

    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const code = newSixDigitCode();
      const id = newToken();
      const result = await trx
        .insertInto('connection_codes')
        .values({
          id,
          code_hash: ctx.services.tokens.hmac(code),
          child_id: child.id,
          expires_at: toDbTime(addMs(now, CONNECTION_CODES.lifetimeSeconds * 1000)),
          created_at: toDbTime(now),
          // issue 31: a device at this address connects with it even while guessers elsewhere
          // have spent the budget of all addresses (devices/connection-codes.ts)
          creator_ip: ctx.ip,
        })
        .onConflict((oc) => oc.column('code_hash').doNothing())
        .executeTakeFirst();
      // 0 rows: the number is held by an outstanding code; draw another.
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) {
        await revokeOldestOfFamily(trx, ctx.parentId, id);
        return { code };
      }
    }
    throw serverError('30519ea3', 'Could not find a free connection code');
  });
});

/** Keeps the family's newest outstanding codes (the new one always among them). */
async function revokeOldestOfFamily(trx: Db, parentId: string, newCodeId: string): Promise<void> {
  const others = await trx
    .selectFrom('connection_codes as cc')
    .innerJoin('children as c', 'c.id', 'cc.child_id')
    .select('cc.id')
    .where('c.parent_id', '=', parentId)
    .where('cc.id', '!=', newCodeId)
    .where('cc.used_at', 'is', null)
    .orderBy('cc.created_at', 'desc')
    .orderBy('cc.id', 'desc')
    .execute();
  const revoked = others.slice(CONNECTION_CODES.outstandingPerFamily - 1).map((row) => row.id);
  if (revoked.length > 0) {
    await trx.deleteFrom('connection_codes').where('id', 'in', revoked).execute();
  }
}
