import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { tooManyRequests } from '../pairql/errors.ts';
import type { Clock } from './clock.ts';

// Fixed-window counters in `rate_limit_counters`, shared by every instance (server-behaviour §10.2).
// Budgets are multiplied by RATE_LIMIT_SCALE. Buckets are strings such as `login:ip:1.2.3.4`.

export interface RateLimiter {
  /**
   * Counts one attempt (or `cost` units, e.g. typed lines) and decides in the same statement;
   * throws 429 beyond the budget.
   */
  consume(bucket: string, limit: number, windowSeconds: number, cost?: number): Promise<void>;
  /** Like `consume`, but answers whether the attempt is within the budget instead of throwing. */
  tryConsume(bucket: string, limit: number, windowSeconds: number): Promise<boolean>;
  /**
   * A failure budget (wrong passwords, wrong codes): takes one attempt from the budget BEFORE the
   * attempt is evaluated, atomically, so N parallel attempts evaluate at most the budget; throws
   * 429 when it is spent. Call `refund()` when the attempt turned out not to be a failure.
   */
  reserve(bucket: string, limit: number, windowSeconds: number): Promise<Reservation>;
  /**
   * Counts one event without a budget (e.g. a global alert counter); returns the window's count.
   * `at` counts it in the window of that instant instead of now's.
   */
  hit(bucket: string, windowSeconds: number, options?: HitOptions): Promise<number>;
}

export interface HitOptions {
  /** units to count (default 1) */
  cost?: number;
  /** the instant whose window is counted (default now) */
  at?: Date;
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
  function window(windowSeconds: number, at: Date = clock.now()) {
    const now = at.getTime();
    const size = windowSeconds * 1000;
    const start = Math.floor(now / size) * size;
    return { start: new Date(start).toISOString(), retryAfter: (start + size - now) / 1000 };
  }
  const budget = (limit: number) => Math.max(1, Math.floor(limit * scale));

  async function hit(
    bucket: string,
    windowSeconds: number,
    { cost = 1, at }: HitOptions = {},
  ): Promise<number> {
    const { start } = window(windowSeconds, at);
    const row = await db
      .insertInto('rate_limit_counters')
      .values({ bucket: storedBucket(bucket), window_start: start, count: cost })
      .onConflict((oc) =>
        oc
          .columns(['bucket', 'window_start'])
          .doUpdateSet({ count: sql<number>`rate_limit_counters.count + ${cost}` }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function consume(bucket: string, limit: number, windowSeconds: number, cost = 1) {
    const count = await hit(bucket, windowSeconds, { cost });
    if (count > budget(limit)) throw tooManyRequests(window(windowSeconds).retryAfter);
  }

  return {
    hit,
    consume,
    async tryConsume(bucket, limit, windowSeconds) {
      return (await hit(bucket, windowSeconds)) <= budget(limit);
    },
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
    tryConsume: limiter.tryConsume,
    consume: (bucket, limit, windowSeconds, cost) =>
      once(`consume ${bucket}`, () => limiter.consume(bucket, limit, windowSeconds, cost)),
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
  /**
   * Issue 19: wrong connection codes from all addresses together, taken before a code is looked up,
   * so no number of addresses gets more guesses evaluated; beyond it every ConnectUser and
   * ConnectDevice is answered 429 until the window ends (at most 10 minutes). 180 guesses an hour
   * find one of 10 outstanding codes with a chance of 1 in 500.
   */
  connectionCodeFailuresEverywhere: { limit: 30, windowSeconds: 10 * 60 },
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

  // Issue 19: what a child's devices may send. Each write is counted for the device (a Mac's
  // computer user or an iPhone) and for its child, so a second device of the child keeps working
  // while one floods; the child's budget is twice a device's. Over budget → the contract's 429.
  /** CreateUnlockRequests_v3 calls (a call may carry several requests). */
  unlockRequestsPerDevice: { limit: 20, windowSeconds: 10 * 60 },
  unlockRequestsPerChild: { limit: 40, windowSeconds: 10 * 60 },
  /** CreateSuspendFilterRequest_v2 (Mac), CreateSuspendFilterRequest (iOS). */
  suspensionRequestsPerDevice: { limit: 10, windowSeconds: 10 * 60 },
  suspensionRequestsPerChild: { limit: 20, windowSeconds: 10 * 60 },
  /** LogSecurityEvent. */
  securityEventsPerDevice: { limit: 30, windowSeconds: 10 * 60 },
  securityEventsPerChild: { limit: 60, windowSeconds: 10 * 60 },
  /**
   * Signed screenshot uploads (CreateSignedScreenshotUpload, ScreenshotUploadUrl): the fastest
   * setting is one every 10 s, so 30 a minute leaves room for catching up after a break.
   */
  /** Keyward for Chrome's check-ins (issue 22): on each push, alarm and wake-up; a loop is refused. */
  browserCheckInsPerDevice: { limit: 30, windowSeconds: 60 },
  browserCheckInsPerChild: { limit: 60, windowSeconds: 60 },
  screenshotsPerDevice: { limit: 30, windowSeconds: 60 },
  screenshotsPerChild: { limit: 60, windowSeconds: 60 },
  /** Typed lines (CreateKeystrokeLines counts each line): two full 1,000-line batches a minute. */
  keystrokeLinesPerDevice: { limit: 2000, windowSeconds: 60 },
  keystrokeLinesPerChild: { limit: 4000, windowSeconds: 60 },

  // Issue 19: parent notifications each notification method may send an hour (the account's
  // fallback email counts as one method); beyond it a message is not sent (the dashboard still
  // lists every request). Texts cost money, so they get the smallest ceiling.
  notificationsPerEmailMethod: { limit: 20, windowSeconds: 60 * 60 },
  notificationsPerTextMethod: { limit: 10, windowSeconds: 60 * 60 },
  notificationsPerSlackMethod: { limit: 20, windowSeconds: 60 * 60 },
  // issue 23: a phone buzzing more often than this is noise; the dashboard lists everything
  notificationsPerPushMethod: { limit: 30, windowSeconds: 60 * 60 },
  // issue 23: one-tap decisions from notifications, per client IP
  pushActionsPerIp: { limit: 60, windowSeconds: 60 * 60 },
} as const;

/** Issue 19: connection codes (CreatePendingAppConnection, ConnectUser, ConnectDevice). */
export const CONNECTION_CODES = {
  /** The parent types the code at the child's device right away: an hour is plenty. */
  lifetimeSeconds: 60 * 60,
  /**
   * A wrong guess cannot be pinned to a code, so every outstanding code counts every wrong guess
   * made anywhere while it waits, and is revoked when it has seen this many (scaled like the
   * budgets): the chance that guessing finds a given code stays below 50 in 900,000.
   */
  revokeAfterWrongGuesses: 50,
  /** Outstanding codes of one family; a newer code revokes the oldest beyond it. */
  outstandingPerFamily: 10,
  /** Outstanding codes of all families; beyond it a new code waits for one to be used (429). */
  outstandingEverywhere: 1000,
} as const;
