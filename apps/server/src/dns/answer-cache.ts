import type { Answer, Packet } from 'dns-packet';

// Issue 33: forwarded answers, cached per (name, type, class, DO, CD) and shared by every device
// (an answer does not depend on who asked; whether the device may ask is decided before). A TTL is
// capped at DNS_MAX_TTL, so a removed key stops resolving within that time on a device that cached
// the name; served TTLs count down. The cache is bounded: the oldest entries go first. An answer
// asked for in its last tenth is fetched again in the background (isNearItsEnd).

export interface CachedAnswer {
  rcode: number;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
  authenticData: boolean;
}

interface Entry {
  answer: CachedAnswer;
  expiresAt: number;
  /** from when an ask fetches it again in the background (in its last tenth, see isNearItsEnd) */
  prefetchAt: number;
  /** the answer as last encoded for a few query shapes, with the TTL left then */
  encoded: EncodedAnswer[];
}

interface EncodedAnswer {
  shape: string;
  left: number;
  bytes: Buffer;
  ttl: number;
}

/** query shapes remembered per entry (clients differ in EDNS, DO, CD and a name's letter case) */
const SHAPES_PER_ENTRY = 4;

const MAX_ENTRIES = 50_000;
/** an answer with no TTL to go by (no records, no SOA) */
const DEFAULT_NEGATIVE_TTL = 10;

export function cacheKey(
  name: string,
  type: string,
  klass: string,
  dnssecOk: boolean,
  cd: boolean,
) {
  return `${name.toLowerCase()}|${type}|${klass}|${dnssecOk ? 1 : 0}${cd ? 1 : 0}`;
}

function ttlOf(record: Answer): number | undefined {
  return record.type === 'OPT' ? undefined : (record as { ttl?: number }).ttl;
}

/** The TTL an answer may be kept: its smallest record TTL (RFC 2308 for negative ones), capped. */
export function answerTtl(answer: CachedAnswer, maxTtl: number): number {
  let ttl: number | undefined;
  const consider = (value: number | undefined) => {
    if (value !== undefined && (ttl === undefined || value < ttl)) ttl = value;
  };
  if (answer.answers.length > 0) {
    for (const record of answer.answers) consider(ttlOf(record));
  } else {
    for (const record of answer.authorities) {
      if (record.type === 'SOA') {
        consider(ttlOf(record));
        consider((record as { data?: { minimum?: number } }).data?.minimum);
      }
    }
  }
  return Math.max(0, Math.min(ttl ?? DEFAULT_NEGATIVE_TTL, maxTtl));
}

export function cachedAnswerOf(packet: Packet): CachedAnswer {
  const flags = packet.flags ?? 0;
  return {
    rcode: flags & 0xf,
    answers: packet.answers ?? [],
    authorities: packet.authorities ?? [],
    // the upstream's OPT (its options, a subnet it echoes) is not the device's
    additionals: (packet.additionals ?? []).filter((record) => record.type !== 'OPT'),
    authenticData: (flags & (1 << 5)) !== 0,
  };
}

/** The answer with every TTL at most `ttl` (what is left of it in the cache). */
export function withTtl(answer: CachedAnswer, ttl: number): CachedAnswer {
  const cap = (records: Answer[]) =>
    records.map((record) =>
      record.type === 'OPT'
        ? record
        : ({ ...record, ttl: Math.min((record as { ttl?: number }).ttl ?? 0, ttl) } as Answer),
    );
  return {
    ...answer,
    answers: cap(answer.answers),
    authorities: cap(answer.authorities),
    additionals: cap(answer.additionals),
  };
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  constructor(private readonly maxTtl: number) {}

  get(key: string, nowMs: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= nowMs) {
      if (entry) this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    const left = Math.max(0, Math.ceil((entry.expiresAt - nowMs) / 1000));
    return withTtl(entry.answer, left);
  }

  /**
   * The cached answer encoded for a query of `shape` (everything of the query the response
   * repeats but its id), or undefined on a miss. Encoding is the dearest part of a cached answer,
   * so the bytes are kept per shape while the TTL left (whole seconds) is the same; the caller sets
   * the id. `ttl` is the answer's smallest TTL, as served.
   */
  getEncoded(
    key: string,
    nowMs: number,
    shape: string,
    encode: (answer: CachedAnswer) => { bytes: Buffer; ttl: number },
  ): { bytes: Buffer; ttl: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= nowMs) {
      if (entry) this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    const left = Math.max(0, Math.ceil((entry.expiresAt - nowMs) / 1000));
    const memo = entry.encoded.find((encoded) => encoded.shape === shape);
    if (memo && memo.left === left) return { bytes: Buffer.from(memo.bytes), ttl: memo.ttl };
    const fresh = encode(withTtl(entry.answer, left));
    const kept = { shape, left, bytes: Buffer.from(fresh.bytes), ttl: fresh.ttl };
    if (memo) Object.assign(memo, kept);
    else {
      if (entry.encoded.length >= SHAPES_PER_ENTRY) entry.encoded.shift();
      entry.encoded.push(kept);
    }
    return fresh;
  }

  /**
   * Whether a kept answer is near its end: in its last tenth (at least its last second), the
   * resolver then asks the upstream again in the background, so a name asked often never expires
   * under its askers and makes them wait for the upstream (unbound's `prefetch`). Where that tenth
   * is longer than a second, each answer's starts at a random point of its second half: names
   * cached together (a page's, or every name after a restart) are not all fetched again in the same
   * millisecond.
   */
  isNearItsEnd(key: string, nowMs: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= nowMs) return false;
    return nowMs >= entry.prefetchAt;
  }

  /** Keeps a NOERROR or NXDOMAIN answer for its capped TTL; the answer as served now. */
  put(key: string, answer: CachedAnswer, nowMs: number): CachedAnswer {
    const ttl = answerTtl(answer, this.maxTtl);
    const served = withTtl(answer, ttl);
    if (ttl > 0 && (answer.rcode === 0 || answer.rcode === 3)) {
      if (this.entries.size >= MAX_ENTRIES) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.delete(key);
      const tenth = (ttl * 1000) / 10;
      this.entries.set(key, {
        answer: served,
        expiresAt: nowMs + ttl * 1000,
        prefetchAt: nowMs + ttl * 1000 - Math.max(1_000, tenth * (0.5 + 0.5 * Math.random())),
        encoded: [],
      });
    }
    return served;
  }

  get size() {
    return this.entries.size;
  }

  clear() {
    this.entries.clear();
  }
}
