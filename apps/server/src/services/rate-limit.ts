import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { tooManyRequests } from '../pairql/errors.ts';
import type { Clock } from './clock.ts';

// Fixed-window counters in `rate_limit_counters`, shared by every instance (server-behaviour §10.2).
// Budgets are multiplied by RATE_LIMIT_SCALE. Buckets are strings such as `login:ip:1.2.3.4`.

export interface RateLimiter {
  /** Counts one attempt; throws 429 when the budget of the window is exceeded. */
  consume(bucket: string, limit: number, windowSeconds: number): Promise<void>;
  /** Throws 429 if the window is already at its budget, without counting (e.g. "failures" budgets). */
  check(bucket: string, limit: number, windowSeconds: number): Promise<void>;
  /** Counts one attempt without checking (record a failure). */
  hit(bucket: string, windowSeconds: number): Promise<number>;
}

const MAX_BUCKET_LENGTH = 200;

/**
 * Buckets carry caller-supplied text (an email as typed); a long one is stored as its prefix and
 * SHA-256, since a PostgreSQL index entry cannot exceed about 2.7 KB.
 */
export function storedBucket(bucket: string): string {
  if (bucket.length <= MAX_BUCKET_LENGTH) return bucket;
  const digest = createHash('sha256').update(bucket).digest('hex');
  return `${bucket.slice(0, MAX_BUCKET_LENGTH - digest.length - 1)}#${digest}`;
}

export function createRateLimiter(db: Db, clock: Clock, scale: number): RateLimiter {
  function window(windowSeconds: number) {
    const now = clock.now().getTime();
    const size = windowSeconds * 1000;
    const start = Math.floor(now / size) * size;
    return { start: new Date(start).toISOString(), retryAfter: (start + size - now) / 1000 };
  }
  const budget = (limit: number) => Math.max(1, Math.floor(limit * scale));

  async function hit(bucket: string, windowSeconds: number): Promise<number> {
    const { start } = window(windowSeconds);
    const row = await db
      .insertInto('rate_limit_counters')
      .values({ bucket: storedBucket(bucket), window_start: start, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['bucket', 'window_start'])
          .doUpdateSet({ count: sql<number>`rate_limit_counters.count + 1` }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  return {
    hit,
    async consume(bucket, limit, windowSeconds) {
      const count = await hit(bucket, windowSeconds);
      if (count > budget(limit)) throw tooManyRequests(window(windowSeconds).retryAfter);
    },
    async check(bucket, limit, windowSeconds) {
      const { start, retryAfter } = window(windowSeconds);
      const row = await db
        .selectFrom('rate_limit_counters')
        .select('count')
        .where('bucket', '=', storedBucket(bucket))
        .where('window_start', '=', start)
        .executeTakeFirst();
      if (row && Number(row.count) >= budget(limit)) throw tooManyRequests(retryAfter);
    },
  };
}

/** Budgets of server-behaviour §10.2 (before scaling). */
export const RATE_LIMITS = {
  loginPerIp: { limit: 30, windowSeconds: 15 * 60 },
  loginFailuresPerEmail: { limit: 10, windowSeconds: 15 * 60 },
  emailSendPerEmail: { limit: 3, windowSeconds: 60 * 60 },
  emailSendPerIp: { limit: 10, windowSeconds: 60 * 60 },
  tokenRedeemPerIp: { limit: 20, windowSeconds: 15 * 60 },
  conferenceEmailPerIp: { limit: 20, windowSeconds: 60 * 60 },
  connectionCodeFailuresPerIp: { limit: 10, windowSeconds: 60 * 60 },
  pendingAppConnectionPerParent: { limit: 20, windowSeconds: 60 * 60 },
  pendingNotificationMethodPerParent: { limit: 5, windowSeconds: 60 * 60 },
  confirmNotificationMethodPerParent: { limit: 10, windowSeconds: 60 * 60 },
} as const;
