import { sql } from 'kysely';
import { addMs, toDbTime } from '../db/values.ts';
import type { PublicContext } from '../pairql/context.ts';
import type { PqlFailure } from '../pairql/errors.ts';
import { CONNECTION_CODES, RATE_LIMITS, type Reservation } from '../pairql/rate-limit.ts';

/**
 * Spends a 6-digit connection code (Macs, iOS devices and browsers share them) and returns its
 * child.
 *
 * Wrong guesses are budgeted per client address AND across all addresses (issue 19), each taken
 * before the lookup, so parallel guesses evaluate at most the budget however many addresses send
 * them. Issue 31: a code is first looked up among the codes created from the caller's own address
 * (the public address of the parent session that made it; a child's device at home usually shares
 * it), with the address's budget only, so other families' wrong guesses cannot lock a family out
 * of connecting its own device; any other lookup takes the budget of all addresses too. A right
 * code gives both back. Every wrong guess is counted by every outstanding code, which is revoked
 * when it has seen too many (a guess cannot be pinned to a code). A code works once: its first
 * lookup marks it used (even if the connection then fails), and the same code
 * sent again within CONNECTION_CODES.usedKeptSeconds (a device retrying while its first use is in
 * flight) is answered like a wrong code but not counted as one.
 */
export async function spendConnectionCode(
  ctx: PublicContext,
  code: number,
  notFound: () => PqlFailure,
): Promise<{ id: string; parentId: string; name: string }> {
  const { rateLimit } = ctx.services;
  const perIp = RATE_LIMITS.connectionCodeFailuresPerIp;
  const fromIp = await rateLimit.reserve(
    `connection-code-failures:ip:${ctx.ip}`,
    perIp.limit,
    perIp.windowSeconds,
  );
  const hash = ctx.services.tokens.hmac(code);
  const now = ctx.clock.now();

  // the codes created from this address: the address's own budget is enough
  const home = await useCode(ctx, hash, now, ctx.ip);
  if (home.case === 'used') {
    await fromIp.refund();
    return home.child;
  }
  if (home.case === 'usedBefore') {
    await fromIp.refund();
    throw notFound();
  }

  let everywhere: Reservation;
  try {
    const budget = RATE_LIMITS.connectionCodeFailuresEverywhere;
    everywhere = await rateLimit.reserve(
      'connection-code-failures:everywhere',
      budget.limit,
      budget.windowSeconds,
    );
  } catch (error) {
    // not evaluated: the address keeps its own budget
    await fromIp.refund();
    ctx.log.error(
      { ip: ctx.ip },
      'ALERT: wrong connection codes from all addresses are over budget; codes are accepted only from the address that created them until the window ends',
    );
    throw error;
  }
  const anywhere = await useCode(ctx, hash, now, undefined);
  if (anywhere.case === 'used' || anywhere.case === 'usedBefore') {
    await Promise.all([fromIp.refund(), everywhere.refund()]);
    if (anywhere.case === 'used') return anywhere.child;
    throw notFound();
  }
  await countWrongGuess(ctx, now);
  throw notFound();
}

type Lookup =
  | { case: 'used'; child: { id: string; parentId: string; name: string } }
  /** the code was used moments ago (a retry while its first use is in flight) */
  | { case: 'usedBefore' }
  | { case: 'none' };

/**
 * Marks the code used if it is outstanding and not expired (created from `creatorIp`, when given)
 * and answers its child. Atomic: of parallel lookups of one code, one uses it. An expired code
 * is deleted when looked up from anywhere (and by CreatePendingAppConnection and the retention job).
 */
async function useCode(
  ctx: PublicContext,
  hash: string,
  now: Date,
  creatorIp: string | undefined,
): Promise<Lookup> {
  const at = toDbTime(now);
  const row = await ctx.db
    .updateTable('connection_codes')
    .set({
      used_at: at,
      // kept only to recognise a retry, then cleared like an expired code
      expires_at: toDbTime(addMs(now, CONNECTION_CODES.usedKeptSeconds * 1000)),
    })
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .$if(creatorIp !== undefined, (qb) => qb.where('creator_ip', '=', creatorIp!))
    .returning(['child_id'])
    .executeTakeFirst();
  if (row) {
    const child = await ctx.db
      .selectFrom('children')
      .select(['id', 'parent_id', 'name'])
      .where('id', '=', row.child_id)
      .executeTakeFirst();
    return child
      ? { case: 'used', child: { id: child.id, parentId: child.parent_id, name: child.name } }
      : { case: 'none' };
  }
  if (creatorIp === undefined) {
    // an expired code (or a used one past its 2 minutes) is cleared on lookup
    await ctx.db
      .deleteFrom('connection_codes')
      .where('code_hash', '=', hash)
      .where('expires_at', '<=', at)
      .execute();
  }
  const usedMomentsAgo = await ctx.db
    .selectFrom('connection_codes')
    .select('id')
    .where('code_hash', '=', hash)
    .where('used_at', 'is not', null)
    .where('expires_at', '>', at)
    .$if(creatorIp !== undefined, (qb) => qb.where('creator_ip', '=', creatorIp!))
    .executeTakeFirst();
  return usedMomentsAgo ? { case: 'usedBefore' } : { case: 'none' };
}

/** Every outstanding code has seen this guess; the ones that have seen too many are revoked. */
async function countWrongGuess(ctx: PublicContext, now: Date): Promise<void> {
  const revokeAt = Math.max(
    1,
    Math.floor(CONNECTION_CODES.revokeAfterWrongGuesses * ctx.config.rateLimitScale),
  );
  await ctx.db
    .updateTable('connection_codes')
    .set({ wrong_guesses: sql<number>`wrong_guesses + 1` })
    .where('expires_at', '>', toDbTime(now))
    .where('used_at', 'is', null)
    .execute();
  const revoked = await ctx.db
    .deleteFrom('connection_codes')
    .where('wrong_guesses', '>=', revokeAt)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  const count = Number(revoked.numDeletedRows);
  if (count > 0) {
    ctx.log.warn({ revoked: count }, 'connection codes revoked: each saw too many wrong guesses');
  }
}
