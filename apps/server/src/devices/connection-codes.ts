import { sql } from 'kysely';
import { toDbTime } from '../db/values.ts';
import type { PublicContext } from '../pairql/context.ts';
import type { PqlFailure } from '../pairql/errors.ts';
import { CONNECTION_CODES, RATE_LIMITS, type Reservation } from '../services/rate-limit.ts';

/**
 * Spends a 6-digit connection code (Macs and iOS devices share them) and returns its child.
 *
 * Wrong guesses are budgeted per client address AND across all addresses (issue 19), each taken
 * before the lookup, so parallel guesses evaluate at most the budget however many addresses send
 * them; when the budget of all addresses is spent, every connection is answered 429 until its
 * window ends. A right code gives both back. Every wrong guess is also counted by every outstanding
 * code, which is revoked when it has seen too many (a guess cannot be pinned to a code). The code
 * is deleted on first lookup, even if it has expired or the connection then fails.
 */
export async function spendConnectionCode(
  ctx: PublicContext,
  code: number,
  notFound: () => PqlFailure,
): Promise<{ id: string; parentId: string; name: string }> {
  const attempt = await reserveAttempt(ctx);

  const row = await ctx.db
    .deleteFrom('connection_codes')
    .where('code_hash', '=', ctx.services.tokens.hmac(code))
    .returning(['child_id', 'expires_at'])
    .executeTakeFirst();
  const now = ctx.clock.now();
  const child =
    row && row.expires_at > toDbTime(now)
      ? await ctx.db
          .selectFrom('children')
          .select(['id', 'parent_id', 'name'])
          .where('id', '=', row.child_id)
          .executeTakeFirst()
      : undefined;
  if (child) {
    await Promise.all(attempt.map((reservation) => reservation.refund()));
    return { id: child.id, parentId: child.parent_id, name: child.name };
  }

  await countWrongGuess(ctx, now);
  throw notFound();
}

/** One attempt from the address's budget, then from the budget of all addresses. */
async function reserveAttempt(ctx: PublicContext): Promise<Reservation[]> {
  const { rateLimit } = ctx.services;
  const perIp = RATE_LIMITS.connectionCodeFailuresPerIp;
  const everywhere = RATE_LIMITS.connectionCodeFailuresEverywhere;
  const fromIp = await rateLimit.reserve(
    `connection-code-failures:ip:${ctx.ip}`,
    perIp.limit,
    perIp.windowSeconds,
  );
  try {
    const fromEverywhere = await rateLimit.reserve(
      'connection-code-failures:everywhere',
      everywhere.limit,
      everywhere.windowSeconds,
    );
    return [fromIp, fromEverywhere];
  } catch (error) {
    // not evaluated: the address keeps its own budget
    await fromIp.refund();
    ctx.log.error(
      { ip: ctx.ip },
      'ALERT: wrong connection codes from all addresses are over budget; every connection is answered 429 until the window ends',
    );
    throw error;
  }
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
    .execute();
  const revoked = await ctx.db
    .deleteFrom('connection_codes')
    .where('wrong_guesses', '>=', revokeAt)
    .executeTakeFirst();
  const count = Number(revoked.numDeletedRows);
  if (count > 0) {
    ctx.log.warn({ revoked: count }, 'connection codes revoked: each saw too many wrong guesses');
  }
}
