import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { tooManyRequests } from '../pairql/errors.ts';
import type { Clock } from './clock.ts';

// Fixed-window counters in `rate_limit_counters`, shared by every instance (server-behaviour §10.2).
// Budgets are multiplied by RATE_LIMIT_SCALE. Buckets are strings such as `login:ip:1.2.3.4`.

export interface RateLimiter {
  /** Counts one attempt and decides in the same statement; throws 429 beyond the budget. */
  consume(bucket: string, limit: number, windowSeconds: number): Promise<void>;
  /**
   * A failure budget (wrong passwords, wrong codes): takes one attempt from the budget BEFORE the
   * attempt is evaluated, atomically, so N parallel attempts evaluate at most the budget; throws
   * 429 when it is spent. Call `refund()` when the attempt turned out not to be a failure.
   */
  reserve(bucket: string, limit: number, windowSeconds: number): Promise<Reservation>;
  /** Counts one event without a budget (e.g. a global alert counter); returns the window's count. */
  hit(bucket: string, windowSeconds: number): Promise<number>;
}

export interface Reservation {
  refund(): Promise<void>;
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

  async function consume(bucket: string, limit: number, windowSeconds: number) {
    const count = await hit(bucket, windowSeconds);
    if (count > budget(limit)) throw tooManyRequests(window(windowSeconds).retryAfter);
  }

  return {
    hit,
    consume,
    async reserve(bucket, limit, windowSeconds) {
      const { start, retryAfter } = window(windowSeconds);
      const giveBack = async () => {
        await db
          .updateTable('rate_limit_counters')
          .set({ count: sql<number>`count - 1` })
          .where('bucket', '=', storedBucket(bucket))
          .where('window_start', '=', start)
          .where('count', '>', 0)
          .execute();
      };
      if ((await hit(bucket, windowSeconds)) > budget(limit)) {
        // a refused attempt is never evaluated: it spends nothing (issue 19), so the count is
        // the attempts evaluated and not refunded, however many were refused meanwhile
        await giveBack();
        throw tooManyRequests(retryAfter);
      }
      return { refund: giveBack };
    },
  };
}

/**
 * The limiter one request sees: each bucket is counted once per request, so a request that the
 * router runs again after losing a race (pairql/router.ts) does not spend its budget twice.
 */
export function oncePerRequest(limiter: RateLimiter): RateLimiter {
  const decisions = new Map<string, Promise<unknown>>();
  function once<T>(key: string, decide: () => Promise<T>): Promise<T> {
    if (!decisions.has(key)) decisions.set(key, decide());
    return decisions.get(key) as Promise<T>;
  }
  return {
    hit: limiter.hit,
    consume: (bucket, limit, windowSeconds) =>
      once(`consume ${bucket}`, () => limiter.consume(bucket, limit, windowSeconds)),
    reserve: (bucket, limit, windowSeconds) =>
      once(`reserve ${bucket}`, () => limiter.reserve(bucket, limit, windowSeconds)),
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
  /** Wrong authenticator or recovery codes (issue 12): per sign-in challenge and per person. */
  secondFactorFailuresPerChallenge: { limit: 5, windowSeconds: 15 * 60 },
  secondFactorFailuresPerPerson: { limit: 10, windowSeconds: 15 * 60 },
  /** Diagnostic events a device app reports (LogInterestingEvent, LogFilterEvents, ReportBrowsers). */
  appEventsPerIp: { limit: 120, windowSeconds: 60 * 60 },
  appEventsPerDevice: { limit: 120, windowSeconds: 60 * 60 },
  /** Data exports a family may start. */
  dataExportsPerParent: { limit: 5, windowSeconds: 24 * 60 * 60 },
} as const;
