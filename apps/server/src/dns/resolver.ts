import { isIP } from 'node:net';
import { decideDnsName, normalizeQueryName } from '@keyward/domain/dns-policy';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { touchPresence } from '../devices/presence.ts';
import type { Clock } from '../services/clock.ts';
import type { PushHub } from '../services/push.ts';
import type { BlockedNames } from './blocked-names.ts';
import type { QueryHours } from './query-hours.ts';
import { AnswerCache, type CachedAnswer, cachedAnswerOf, cacheKey } from './answer-cache.ts';
import type { DnsConfig } from '../dns-config.ts';
import { createDevicePolicies, DEVICE_ID, type DevicePolicies } from './device-policies.ts';
import { createForwarder, type Forwarder } from './upstream.ts';
import {
  BLOCKED_TTL_SECONDS,
  blockedResponse,
  encodeBareError,
  encodeResponse,
  errorResponse,
  MAX_MESSAGE,
  type ParsedQuery,
  parseQuery,
  RCODE,
} from './wire.ts';

// Issue 33: Keyward DNS's resolver, the same for DoH and DoT (docs/dns.md). For one query of one
// device:
//   malformed → FORMERR (NOTIMP for another opcode); unknown or removed device → REFUSED;
//   over its query budget → REFUSED (counted); the policy's decision (packages/domain dns-policy):
//   blocked → 0.0.0.0 / :: / NODATA, TTL 10 s; allowed → the shared answer cache, else the
//   upstreams (SERVFAIL when they fail, within DNS_UPSTREAM_TIMEOUT_MS).

export type DnsTransport = 'doh' | 'dot';
export type DnsOutcome =
  | 'allowed'
  | 'cached'
  | 'blocked'
  | 'refusedUnknown'
  | 'refusedBudget'
  | 'formerr'
  | 'notimp'
  | 'servfail';

export interface DnsAnswer {
  bytes: Buffer;
  /** the smallest TTL in the answer (DoH's Cache-Control) */
  ttl: number;
  outcome: DnsOutcome;
}

export interface DnsResolver {
  /** `client`: the address the query came from (its lookups of device ids not in memory are budgeted) */
  answer(
    deviceId: string | undefined,
    bytes: Buffer,
    transport: DnsTransport,
    client?: string,
  ): Promise<DnsAnswer>;
  readonly policies: DevicePolicies;
  readonly cache: AnswerCache;
  close(): void;
}

export interface DnsResolverOptions {
  config: DnsConfig;
  db: Db;
  clock: Clock;
  push: PushHub;
  log: FastifyBaseLogger;
  /** the server's own names (PUBLIC_URL's host, the dashboard's): always resolvable */
  serverHosts: string[];
  onQuery?: (transport: DnsTransport, outcome: DnsOutcome) => void;
  /** where blocked names are kept for the device's /ask page */
  blockedNames?: BlockedNames;
  /** issue 33: where allowed names are kept for the device's page (its top allowed names) */
  allowedNames?: BlockedNames;
  /** issue 33: per hour, the device's queries and blocked ones (today's queries on its page) */
  queryHours?: QueryHours;
  /** tests: another forwarder */
  forwarder?: Forwarder;
}

/** iCloud Private Relay: Apple asks networks that filter to answer these negatively. */
const NEGATIVE_NAMES = new Set(['mask.icloud.com', 'mask-h2.icloud.com']);

/**
 * Reads of a device id not in memory, per client address (an IPv6 address's /64): a household's
 * devices each cost one a minute, a stranger trying ids at random is REFUSED past this, without a
 * database read (docs/dns.md).
 */
export const LOOKUPS_PER_MINUTE_PER_ADDRESS = 600;

/** The address a lookup budget is kept for: IPv4 as it is, IPv6 by its /64. */
export function addressGroup(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.)/i, '');
  if (isIP(plain) !== 6) return plain;
  const [head = '', tail = ''] = plain.toLowerCase().split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === '' ? [] : tail.split(':');
  const missing = plain.includes('::') ? 8 - headParts.length - tailParts.length : 0;
  const parts = [...headParts, ...Array(Math.max(0, missing)).fill('0'), ...tailParts];
  return `${parts
    .slice(0, 4)
    .map((part) => Number.parseInt(part, 16).toString(16))
    .join(':')}::/64`;
}

/** blocked answers kept encoded (docs/dns.md) */
const MAX_BLOCKED_ANSWERS = 10_000;

/**
 * Names fetched again in the background at once (prefetch): names cached together come to their
 * last tenth together, and a few at a time keep the event loop to its answers meanwhile.
 */
const MAX_PREFETCHES = 8;

/** Presence (the device's *Filtering* status) is written at most this often per device. */
const PRESENCE_EVERY_MS = 15_000;

/**
 * Token buckets of `perMinute` tokens, full at first, refilled evenly; at most `maxKeys` kept (the
 * least recently used go, and come back full). A clock that steps back refills nothing.
 */
class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys: number,
  ) {}

  take(key: string, nowMs: number): boolean {
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: nowMs };
    bucket.tokens = Math.min(
      this.perMinute,
      bucket.tokens + (Math.max(0, nowMs - bucket.at) * this.perMinute) / 60_000,
    );
    bucket.at = nowMs;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

/** What of a query its response repeats, but the id: encoded answers are kept per shape. */
function responseShape(query: ParsedQuery): string {
  const flags = query.packet.flags ?? 0;
  return `${flags & 0x100 ? 1 : 0}${query.edns ? 1 : 0}${query.dnssecOk ? 1 : 0}${query.checkingDisabled ? 1 : 0}${query.question.name}`;
}

export function serverHostsOf(urls: readonly string[], dotDomain: string): string[] {
  const hosts = new Set<string>([dotDomain]);
  for (const url of urls) {
    try {
      const host = new URL(url).hostname.toLowerCase();
      if (isIP(host.replace(/^\[|\]$/g, '')) === 0) hosts.add(host);
    } catch {
      // not a URL: nothing to add
    }
  }
  return [...hosts];
}

export function createDnsResolver(options: DnsResolverOptions): DnsResolver {
  const { config, db, clock, log } = options;
  const policies = createDevicePolicies({
    db,
    clock,
    push: options.push,
    serverHosts: options.serverHosts,
  });
  const cache = new AnswerCache(config.maxTtlSeconds);
  const forwarder = options.forwarder ?? createForwarder(config);
  const inFlight = new Map<string, Promise<CachedAnswer | undefined>>();
  let prefetching = 0;
  const presenceWrittenAt = new Map<string, number>();
  if (config.upstreams.length === 0) {
    log.warn(
      'Keyward DNS: DNS_UPSTREAM is not set, so allowed names answer SERVFAIL (only production forwards to the public default); set it, e.g. DNS_UPSTREAM=udp://192.0.2.53',
    );
  }

  // each device's query budget, and each client address's lookups of ids not in memory
  const budgets = new TokenBuckets(config.queriesPerMinute, 200_000);
  const lookups = new TokenBuckets(LOOKUPS_PER_MINUTE_PER_ADDRESS, 100_000);
  const takeBudget = (deviceId: string, nowMs: number) => budgets.take(deviceId, nowMs);
  const takeLookup = (client: string, nowMs: number) => lookups.take(addressGroup(client), nowMs);

  function notePresence(deviceId: string, now: Date) {
    const last = presenceWrittenAt.get(deviceId) ?? 0;
    if (now.getTime() - last < PRESENCE_EVERY_MS) return;
    presenceWrittenAt.set(deviceId, now.getTime());
    if (presenceWrittenAt.size > 200_000) {
      const oldest = presenceWrittenAt.keys().next().value;
      if (oldest !== undefined) presenceWrittenAt.delete(oldest);
    }
    touchPresence(db, deviceId, now).catch((error: unknown) =>
      log.warn({ err: error, deviceId }, 'Keyward DNS: could not note presence'),
    );
  }

  function forward(query: ParsedQuery): Promise<CachedAnswer | undefined> {
    const { question } = query;
    const klass = question.class ?? 'IN';
    const key = cacheKey(
      question.name,
      question.type,
      klass,
      query.dnssecOk,
      query.checkingDisabled,
    );
    const pending = inFlight.get(key);
    if (pending) return pending;
    const promise = forwarder
      .resolve({
        name: question.name,
        type: question.type,
        class: klass,
        dnssecOk: query.dnssecOk,
        checkingDisabled: query.checkingDisabled,
      })
      .then((packet) => (packet ? cache.put(key, cachedAnswerOf(packet), Date.now()) : undefined))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  }

  // A blocked answer depends only on the query's shape, type and class, never on the device: the
  // bytes are kept (bounded, oldest out) and only the id is written per query.
  const blockedAnswers = new Map<string, Buffer>();
  function blockedBytes(query: ParsedQuery, negative: boolean): Buffer {
    const { question } = query;
    const key = `${negative ? 1 : 0}${question.type}|${question.class ?? 'IN'}|${responseShape(query)}`;
    let bytes = blockedAnswers.get(key);
    if (!bytes) {
      bytes = blockedResponse(query, negative);
      if (blockedAnswers.size >= MAX_BLOCKED_ANSWERS) {
        const oldest = blockedAnswers.keys().next().value;
        if (oldest !== undefined) blockedAnswers.delete(oldest);
      }
      blockedAnswers.set(key, bytes);
    }
    const copy = Buffer.from(bytes);
    copy.writeUInt16BE(query.packet.id ?? 0, 0);
    return copy;
  }

  function minTtl(answer: CachedAnswer): number {
    let ttl = config.maxTtlSeconds;
    for (const record of [...answer.answers, ...answer.authorities]) {
      const value = (record as { ttl?: number }).ttl;
      if (value !== undefined && value < ttl) ttl = value;
    }
    return ttl;
  }

  async function answer(
    deviceId: string | undefined,
    bytes: Buffer,
    transport: DnsTransport,
    client?: string,
  ): Promise<DnsAnswer> {
    const done = (result: DnsAnswer) => {
      options.onQuery?.(transport, result.outcome);
      return result;
    };
    const parsed = parseQuery(bytes);
    if (!parsed.ok) {
      return done({
        bytes: encodeBareError(parsed.id, parsed.rcode),
        ttl: 0,
        outcome: parsed.rcode === RCODE.NOTIMP ? 'notimp' : 'formerr',
      });
    }
    const { query } = parsed;
    const id = deviceId?.toLowerCase();
    // a malformed id cannot be a device; a well-formed one takes the same lookup known or not
    const isId = id !== undefined && DEVICE_ID.test(id);
    if (
      isId &&
      client !== undefined &&
      !policies.isKnownNow(id) &&
      !takeLookup(client, Date.now())
    ) {
      // an address trying more device ids than a household has: REFUSED, no database read
      return done({ bytes: errorResponse(query, RCODE.REFUSED), ttl: 0, outcome: 'refusedBudget' });
    }
    let device: Awaited<ReturnType<DevicePolicies['get']>>;
    try {
      device = isId ? await policies.get(id) : undefined;
    } catch (error) {
      // the database is unreachable: the device cannot be told apart, so no answer but SERVFAIL
      log.warn({ err: error }, 'Keyward DNS: could not read a device policy');
      return done({ bytes: errorResponse(query, RCODE.SERVFAIL), ttl: 0, outcome: 'servfail' });
    }
    if (!device) {
      return done({
        bytes: errorResponse(query, RCODE.REFUSED),
        ttl: 0,
        outcome: 'refusedUnknown',
      });
    }
    const now = clock.now();
    if (!takeBudget(device.deviceId, Date.now())) {
      return done({ bytes: errorResponse(query, RCODE.REFUSED), ttl: 0, outcome: 'refusedBudget' });
    }
    notePresence(device.deviceId, now);

    const name = normalizeQueryName(query.question.name);
    if (NEGATIVE_NAMES.has(name)) {
      options.queryHours?.note(device.deviceId, true, now);
      return done({
        bytes: blockedBytes(query, true),
        ttl: BLOCKED_TTL_SECONDS,
        outcome: 'blocked',
      });
    }
    const decision = decideDnsName(device.policy, name, now);
    if (decision.verdict === 'block') {
      // a service name (`_443._https.example.com`, what browsers ask HTTPS records with) is
      // not one a child would ask for: only the names themselves are kept
      if (!name.startsWith('_')) options.blockedNames?.note(device.deviceId, name, now);
      options.queryHours?.note(device.deviceId, true, now);
      return done({
        bytes: blockedBytes(query, false),
        ttl: BLOCKED_TTL_SECONDS,
        outcome: 'blocked',
      });
    }
    options.queryHours?.note(device.deviceId, false, now);
    options.allowedNames?.note(device.deviceId, name, now);
    const { question } = query;
    const key = cacheKey(
      question.name,
      question.type,
      question.class ?? 'IN',
      query.dnssecOk,
      query.checkingDisabled,
    );
    const respond = (sections: CachedAnswer) => {
      const bytes = encodeResponse(query, sections);
      // an answer bigger than a DoT frame (and DoH, RFC 8484) can carry: as if the upstream had
      // failed
      if (bytes.length > MAX_MESSAGE) throw new RangeError('answer too large');
      return { bytes, ttl: minTtl(sections) };
    };
    let served: { bytes: Buffer; ttl: number } | undefined;
    let cached = true;
    try {
      const nowMs = Date.now();
      served = cache.getEncoded(key, nowMs, responseShape(query), respond);
      // a name still asked for near its end is fetched again meanwhile (once: misses in flight
      // share one upstream query), so its askers never wait for the upstream; a few at a time
      // (the others are still asked for, later in their last tenth)
      if (
        served &&
        prefetching < MAX_PREFETCHES &&
        !inFlight.has(key) &&
        cache.isNearItsEnd(key, nowMs)
      ) {
        prefetching++;
        forward(query)
          .catch(() => undefined)
          .finally(() => prefetching--);
      }
      if (!served) {
        cached = false;
        const forwarded = await forward(query);
        if (forwarded) served = respond(forwarded);
      }
    } catch {
      // an upstream record dns-packet cannot write back, or too big: as if the upstream had failed
      served = undefined;
    }
    if (!served) {
      return done({ bytes: errorResponse(query, RCODE.SERVFAIL), ttl: 0, outcome: 'servfail' });
    }
    // the response repeats the query's id (the kept bytes are another query's)
    served.bytes.writeUInt16BE(query.packet.id ?? 0, 0);
    return done({ bytes: served.bytes, ttl: served.ttl, outcome: cached ? 'cached' : 'allowed' });
  }

  return {
    answer,
    policies,
    cache,
    close() {
      policies.close();
      forwarder.close();
      cache.clear();
    },
  };
}
