import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { tooManyRequests } from './errors.ts';
import type { Clock } from '../services/clock.ts';

// Counters in `rate_limit_counters`, shared by every instance (server-behaviour §10.2). Budgets are
// multiplied by RATE_LIMIT_SCALE. Buckets are strings such as `login:ip:1.2.3.4`.
//
// Issue 31: budgets slide. A budget's window is counted in two halves, and an attempt is within the
// budget when the current half and the one before it hold at most the budget together. On fixed
// windows a burst at a window's end and another at the next one's start let twice the budget
// through at once (20 wrong passwords evaluated instead of 10); now no half-window-long span, and
// no burst at any edge, gets more than the budget, and over time the rate stays the budget per
// window. A spent budget frees up when the half it was spent in is no longer the one before the
// current (at most a window later; Retry-After says when). `hit` (a bare counter of one window,
// used for grouping) keeps whole windows.

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

  /**
   * Counts `cost` in the current half of the budget's window; answers the count of that half and
   * of the one before it together, the half's start, and the seconds until the budget has room
   * again if this count is over it (`kept`: what of this half stays counted when refused).
   */
  async function slide(bucket: string, windowSeconds: number, cost: number) {
    const halfSeconds = windowSeconds / 2;
    const now = clock.now().getTime();
    const size = halfSeconds * 1000;
    const start = Math.floor(now / size) * size;
    const row = await db
      .insertInto('rate_limit_counters')
      .values({
        bucket: storedBucket(bucket),
        window_start: new Date(start).toISOString(),
        count: cost,
      })
      .onConflict((oc) =>
        oc
          .columns(['bucket', 'window_start'])
          .doUpdateSet({ count: sql<number>`rate_limit_counters.count + ${cost}` }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    const previous = await db
      .selectFrom('rate_limit_counters')
      .select('count')
      .where('bucket', '=', storedBucket(bucket))
      .where('window_start', '=', new Date(start - size).toISOString())
      .executeTakeFirst();
    const current = Number(row.count);
    return {
      current,
      total: current + Number(previous?.count ?? 0),
      start: new Date(start).toISOString(),
      /** seconds until the budget has room, when what this half holds is `kept` */
      retryAfter: (kept: number, limit: number) =>
        (start + (kept < budget(limit) ? size : 2 * size) - now) / 1000,
    };
  }

  async function consume(bucket: string, limit: number, windowSeconds: number, cost = 1) {
    const counted = await slide(bucket, windowSeconds, cost);
    if (counted.total > budget(limit)) {
      // what is refused counts too: the budget stays spent until Retry-After (pairql/refused-devices.ts)
      throw tooManyRequests(counted.retryAfter(counted.current, limit), undefined, true);
    }
  }

  return {
    hit,
    consume,
    async tryConsume(bucket, limit, windowSeconds) {
      return (await slide(bucket, windowSeconds, 1)).total <= budget(limit);
    },
    async reserve(bucket, limit, windowSeconds) {
      const counted = await slide(bucket, windowSeconds, 1);
      const giveBack = async () => {
        await db
          .updateTable('rate_limit_counters')
          .set({ count: sql<number>`count - 1` })
          .where('bucket', '=', storedBucket(bucket))
          .where('window_start', '=', counted.start)
          .where('count', '>', 0)
          .execute();
      };
      if (counted.total > budget(limit)) {
        // a refused attempt is never evaluated: it spends nothing (issue 19), so the count is
        // the attempts evaluated and not refunded, however many were refused meanwhile
        await giveBack();
        throw tooManyRequests(counted.retryAfter(counted.current - 1, limit));
      }
      return { refund: giveBack };
    },
  };
}

/**
 * The limiter one request sees: each bucket is counted once per request, so a request that the
 * router runs again after losing a race (http/pairql.ts) does not spend its budget twice.
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
  /**
   * Issue 30: home pages rendered on the server for one session (four reads and a render each);
   * past it the page is index.html, rendered by the browser, so a reload loop costs a file.
   */
  signedInRendersPerSession: { limit: 30, windowSeconds: 60 },
  loginPerIp: { limit: 30, windowSeconds: 15 * 60 },
  loginFailuresPerEmail: { limit: 10, windowSeconds: 15 * 60 },
  emailSendPerEmail: { limit: 3, windowSeconds: 60 * 60 },
  emailSendPerIp: { limit: 10, windowSeconds: 60 * 60 },
  tokenRedeemPerIp: { limit: 20, windowSeconds: 15 * 60 },
  conferenceEmailPerIp: { limit: 20, windowSeconds: 60 * 60 },
  connectionCodeFailuresPerIp: { limit: 10, windowSeconds: 60 * 60 },
  /**
   * Issue 19: wrong connection codes from all addresses together, taken before a code is looked up,
   * so no number of addresses gets more guesses evaluated. Issue 31: beyond it a code is accepted
   * only from the address that created it (devices/connection-codes.ts) until the window ends (at
   * most 10 minutes); the arithmetic is in docs/flood-limits.md.
   */
  connectionCodeFailuresEverywhere: { limit: 30, windowSeconds: 10 * 60 },
  pendingAppConnectionPerParent: { limit: 20, windowSeconds: 60 * 60 },
  /** Issue 33: DNS devices a family connects (each a computer row) */
  dnsDevicePerParent: { limit: 20, windowSeconds: 60 * 60 },
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
  /**
   * Issue 31: typed characters (UTF-16 units of the lines), since matching costs grow with them: a
   * minute's worth of lines at 200 characters each. A line may hold 10,000, so lines alone let one
   * batch take seconds of the request thread.
   */
  keystrokeCharactersPerDevice: { limit: 400_000, windowSeconds: 60 },
  keystrokeCharactersPerChild: { limit: 800_000, windowSeconds: 60 },

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
  /**
   * Issue 31: a used code is kept this long, so the same code sent again while its first use is
   * in flight (a retrying device) is not counted as a wrong guess.
   */
  usedKeptSeconds: 2 * 60,
} as const;
