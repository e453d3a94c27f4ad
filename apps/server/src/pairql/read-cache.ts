import {
  brotliCompressSync,
  crc32,
  deflateRawSync,
  gzipSync,
  constants as zlibConstants,
} from 'node:zlib';
import type { User } from '@keyward/contract/shared';
import { OFFLINE_AFTER_SECONDS } from '@keyward/domain/status';
import type { Db } from '../db/database.ts';
import { DAY as DAY_MS, toDbTime } from '../db/values.ts';
import type { ParentContext } from './context.ts';

// Issue 11 (read path): whole answers of the large reads, serialized once and served again while
// the family's data version (family_versions, kept by database triggers: migrations/0014) is the
// one they were built at and the clock is before the first instant their answer can change on its
// own (a key's expiration, a computer going offline 100 s after its last sign of life, a trial's
// days left). One cache per process and database; another instance sees the same versions, so a
// write anywhere invalidates everywhere. READ_CACHE_VERIFY (on under NODE_ENV=test) recomputes
// every hit and answers 500 when it differs.

const MAX_ENTRIES = 5_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** Compressed once per entry, so a better ratio than the per-request quality 1 is cheap. */
const BROTLI_QUALITY = 5;
/** The compression plugin leaves smaller answers alone (http/compression.ts). */
const COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

export interface CachedAnswer {
  version: string;
  /** when it was built: a clock set back before it (tests) does not reuse it */
  builtAt: number;
  /** the first instant its answer may differ without any write (Infinity: none) */
  validUntil: number;
  json: string;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** for an answer that is this one's JSON with fields added at its end (CheckIn_v2) */
  deflatedPrefix?: DeflatedPrefix;
  bytes: number;
}

interface DeflatedPrefix {
  deflated: Buffer;
  crc: number;
  length: number;
}

/** An answer already serialized (a cache hit, or CheckIn_v2 built around a cached part). */
export class JsonText {
  private constructor(
    private readonly whole: string | undefined,
    /** set on a cache hit: its compressed variants are kept with it */
    readonly cached?: CachedAnswer,
    /** the entry's JSON, its last `open` closing braces replaced by `suffix` (CheckIn_v2) */
    readonly extended?: { entry: CachedAnswer; suffix: string; open: number },
  ) {}

  static of(text: string, cached?: CachedAnswer): JsonText {
    return new JsonText(text, cached);
  }

  /** An entry's answer with fields added at its end (`suffix` starts with `,` and ends with `}`). */
  static extending(entry: CachedAnswer, suffix: string, open = 1): JsonText {
    return new JsonText(undefined, undefined, { entry, suffix, open });
  }

  /** Built only when sent as it is: a gzip answer is made of the kept parts (extendedGzip). */
  get text(): string {
    if (this.whole !== undefined) return this.whole;
    const { entry, suffix, open } = this.extended!;
    return `${entry.json.slice(0, -open)}${suffix}`;
  }
}

export class ReadCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  /** The entry for this key if it was built at this version and is still valid at `now`. */
  get(key: string, version: string, now: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.version === version && entry.builtAt <= now && now < entry.validUntil) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.hits++;
      return entry;
    }
    this.misses++;
    return undefined;
  }

  set(key: string, entry: Omit<CachedAnswer, 'encoded' | 'bytes'>): CachedAnswer {
    this.delete(key);
    const stored: CachedAnswer = { ...entry, encoded: {}, bytes: entry.json.length * 2 };
    this.entries.set(key, stored);
    this.bytes += stored.bytes;
    while (this.entries.size > MAX_ENTRIES || this.bytes > MAX_BYTES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    return stored;
  }

  get size() {
    return this.entries.size;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }
}

const caches = new WeakMap<Db, ReadCache>();

export function readCacheOf(db: Db): ReadCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new ReadCache();
    caches.set(db, cache);
  }
  return cache;
}

/** The answer's bytes in this encoding, compressed on first use and kept with the entry. */
export function encodedAnswer(entry: CachedAnswer, encoding: Encoding): Buffer {
  let bytes = entry.encoded[encoding];
  if (!bytes) {
    bytes =
      encoding === 'br'
        ? brotliCompressSync(entry.json, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
          })
        : gzipSync(entry.json);
    entry.encoded[encoding] = bytes;
    entry.bytes += bytes.length;
  }
  return bytes;
}

/**
 * gzip of `entry.json` with its closing brace replaced by `suffix`, without compressing the
 * entry's part again: its deflate blocks (flushed to a byte boundary, kept with the entry) are
 * followed by one stored block holding the suffix, and the CRC-32 is continued over the suffix.
 * Undefined for a suffix over 64 KB (one stored block).
 */
export function extendedGzip(entry: CachedAnswer, suffix: string, open = 1): Buffer | undefined {
  const tail = Buffer.from(suffix);
  if (tail.length > 0xffff) return undefined;
  let prefix = entry.deflatedPrefix;
  if (!prefix) {
    const head = Buffer.from(entry.json.slice(0, -open));
    prefix = {
      deflated: deflateRawSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }),
      crc: crc32(head),
      length: head.length,
    };
    entry.deflatedPrefix = prefix;
    entry.bytes += prefix.deflated.length;
  }
  const out = Buffer.allocUnsafe(10 + prefix.deflated.length + 5 + tail.length + 8);
  // gzip header: deflate, no flags, no time, unknown OS
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff], 0);
  let at = 10 + prefix.deflated.copy(out, 10);
  // last block, stored: BFINAL=1, BTYPE=00, then LEN and its ones' complement
  out[at++] = 0x01;
  at = out.writeUInt16LE(tail.length, at);
  at = out.writeUInt16LE(~tail.length & 0xffff, at);
  at += tail.copy(out, at);
  at = out.writeUInt32LE(crc32(tail, prefix.crc), at);
  out.writeUInt32LE((prefix.length + tail.length) % 2 ** 32, at);
  return out;
}

/** The encodings the client accepts among ours (q=0 refuses one; `*` stands for both). */
export function acceptedEncodings(accept: string | string[] | undefined): Set<Encoding> {
  const accepted = new Set<Encoding>();
  if (typeof accept !== 'string') return accepted;
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    if (name === 'br' || name === '*') accepted.add('br');
    if (name === 'gzip' || name === 'x-gzip' || name === '*') accepted.add('gzip');
  }
  return accepted;
}

/** br when accepted, else gzip, else none; like the compression plugin (brotli first). */
export function pickEncoding(
  accept: string | string[] | undefined,
  length: number,
): Encoding | undefined {
  if (length < COMPRESS_MIN_BYTES) return undefined;
  const accepted = acceptedEncodings(accept);
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
}

// ---- which dashboard reads are cached, and until when their answers hold without a write ----

export interface CachedOperation {
  /** the answer depends on the person (a co-parent's own notification methods, the role) */
  perPerson: boolean;
  /** the first instant after `now` at which the answer can change with no write (Infinity: never) */
  horizon(db: Db, output: unknown, ctx: ParentContext, now: Date): Promise<number>;
}

/** The earliest expiration after `now` among the keys of these keychains. */
async function nextKeyExpiry(db: Db, keychainIds: string[], now: Date): Promise<number> {
  if (keychainIds.length === 0) return Number.POSITIVE_INFINITY;
  const row = await db
    .selectFrom('keys')
    .select((eb) => eb.fn.min('deleted_at').as('next'))
    .where('keychain_id', 'in', [...new Set(keychainIds)])
    .where('deleted_at', '>', toDbTime(now))
    .executeTakeFirst();
  return row?.next ? Date.parse(row.next) : Number.POSITIVE_INFINITY;
}

/** When the first of these computer users that is online now goes offline without a heartbeat. */
async function nextOffline(db: Db, computerUserIds: string[], now: Date): Promise<number> {
  if (computerUserIds.length === 0) return Number.POSITIVE_INFINITY;
  const rows = await db
    .selectFrom('device_presence')
    .select('last_seen_at')
    .where('computer_user_id', 'in', computerUserIds)
    .execute();
  let next = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    const offlineAt = Date.parse(row.last_seen_at) + OFFLINE_AFTER_SECONDS * 1000;
    // NaN (an unreadable time) reads as offline for ever: it changes only with a write
    if (offlineAt > now.getTime() && offlineAt < next) next = offlineAt;
  }
  return next;
}

async function usersHorizon(db: Db, users: User[], now: Date): Promise<number> {
  const [keys, offline] = await Promise.all([
    nextKeyExpiry(
      db,
      users.flatMap((user) => user.keychains.map((keychain) => keychain.id)),
      now,
    ),
    nextOffline(
      db,
      users.flatMap((user) => user.devices.map((device) => device.id)),
      now,
    ),
  ]);
  // issue 34: a timed pause ends on its own
  let pauseEnd = Number.POSITIVE_INFINITY;
  for (const user of users) {
    const until = user.screenTime?.pause?.until;
    if (until !== undefined) pauseEnd = Math.min(pauseEnd, Date.parse(until));
  }
  return Math.min(keys, offline, pauseEnd);
}

export const CACHED_DASHBOARD_OPERATIONS: Readonly<Record<string, CachedOperation>> = {
  GetUsers: {
    perPerson: false,
    horizon: (db, output, _ctx, now) => usersHorizon(db, output as User[], now),
  },
  GetUser: {
    perPerson: false,
    horizon: (db, output, _ctx, now) => usersHorizon(db, [output as User], now),
  },
  GetAdminKeychains: {
    perPerson: false,
    // every unexpired key of the family's keychains is in the answer with its expiration
    horizon: async (_db, output, _ctx, now) => {
      const { keychains } = output as { keychains: { keys: { expiration?: string }[] }[] };
      let next = Number.POSITIVE_INFINITY;
      for (const keychain of keychains) {
        for (const key of keychain.keys) {
          if (key.expiration === undefined) continue;
          const at = Date.parse(key.expiration);
          if (at > now.getTime() && at < next) next = at;
        }
      }
      return next;
    },
  },
  GetAdmin: {
    perPerson: true,
    // a trial's daysLeft (whole days to the expiration, rounded up) drops at expiration - n days
    horizon: async (db, output, ctx, now) => {
      // no countdown shown (paid, complimentary, or any account with BILLING=off): nothing expires
      const shown = (output as { subscriptionStatus?: { case: string } }).subscriptionStatus;
      if (shown?.case !== 'trialing') return Number.POSITIVE_INFINITY;
      const parent = await db
        .selectFrom('parents')
        .select(['subscription_status', 'subscription_status_expiration'])
        .where('id', '=', ctx.parentId)
        .executeTakeFirst();
      if (
        !parent ||
        (parent.subscription_status !== 'trialing' &&
          parent.subscription_status !== 'trialExpiringSoon')
      ) {
        return Number.POSITIVE_INFINITY;
      }
      const expiration = Date.parse(parent.subscription_status_expiration);
      const days = Math.ceil((expiration - now.getTime()) / DAY_MS);
      if (Number.isNaN(days)) return now.getTime();
      return days <= 0 ? Number.POSITIVE_INFINITY : expiration - (days - 1) * DAY_MS;
    },
  },
};

/** The cache key of a dashboard read: operation, family, person when it matters, input. */
export function dashboardKey(
  op: string,
  spec: CachedOperation,
  ctx: ParentContext,
  input: unknown,
): string {
  const person = spec.perPerson ? `${ctx.personId}/${ctx.role}` : '';
  return `${op}\n${ctx.parentId}\n${person}\n${input === undefined ? '' : JSON.stringify(input)}`;
}
