import { toDbTime } from '../db/values.ts';
import type { PublicContext } from '../pairql/context.ts';
import type { PqlFailure } from '../pairql/errors.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';

/** Failed guesses across all IPs per hour above which an alert is logged. */
const GLOBAL_FAILURE_ALERT = 200;

/**
 * Spends a 6-digit connection code (Macs and iOS devices share them) and returns its child.
 * Failures are budgeted per IP, taken before the lookup so parallel guesses evaluate at most the
 * budget; the code is deleted on first lookup, even if it has expired or the connection then fails.
 */
export async function spendConnectionCode(
  ctx: PublicContext,
  code: number,
  notFound: () => PqlFailure,
): Promise<{ id: string; parentId: string; name: string }> {
  const { limit, windowSeconds } = RATE_LIMITS.connectionCodeFailuresPerIp;
  const bucket = `connection-code-failures:ip:${ctx.ip}`;
  const attempt = await ctx.services.rateLimit.reserve(bucket, limit, windowSeconds);

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
    await attempt.refund();
    return { id: child.id, parentId: child.parent_id, name: child.name };
  }

  const total = await ctx.services.rateLimit.hit('connection-code-failures:all', windowSeconds);
  if (total > GLOBAL_FAILURE_ALERT) {
    ctx.log.error({ failures: total }, 'ALERT: connection-code guesses across all IPs this hour');
  }
  throw notFound();
}
