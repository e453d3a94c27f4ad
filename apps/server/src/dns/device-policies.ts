import type { PlainTimeWindow } from '@keyward/contract/shared';
import {
  CONNECTIVITY_CHECK_DOMAINS,
  CONNECTIVITY_CHECK_HOSTS,
  compileDnsPolicy,
  type DnsPolicy,
} from '@keyward/domain/dns-policy';
import type { Db } from '../db/database.ts';
import { fromDbJson } from '../db/values.ts';
import { activeBrowserSuspension, browserKeychains } from '../devices/browsers.ts';
import type { Clock } from '../services/clock.ts';
import type { PushHub } from '../services/push.ts';

// Issue 33: each DNS device's compiled policy, read from the database once and kept until the
// parent changes something. Every change that reaches a Mac or a browser (a key, a keychain, a
// schedule, downtime, a decided request, a removal) is pushed to the child's computer users, and a
// DNS device is one of them: its policy is dropped on any push to it, on this instance and, through
// PostgreSQL NOTIFY (services/push.ts), on every other. It is dropped again a second later, so a
// push sent just before its change commits (a removal pushes first) is not missed. A policy is
// also never older than MAX_AGE_MS, a bound for anything pushed nowhere (the family's time zone):
// a policy that has only grown old is read again in the background while the device's queries go
// on being answered from the one in memory (a minute's age is no reason to make them wait for the
// database); one that a push dropped is read again before the next answer.
//
// Unknown ids are remembered as unknown the same way (bounded), so a device that was removed, or a
// stranger's guess, costs the same as a known device's query: one lookup, then the cache.

export interface DevicePolicy {
  deviceId: string;
  childId: string;
  policy: DnsPolicy;
}

export interface DevicePolicies {
  /** undefined: no DNS device of this id */
  get(deviceId: string): Promise<DevicePolicy | undefined>;
  /** whether `get` would answer from memory (no database read) */
  isKnownNow(deviceId: string): boolean;
  /** drops one device's policy (tests, and the push subscription) */
  invalidate(deviceId: string): void;
  size(): number;
  close(): void;
}

const MAX_AGE_MS = 60_000;
const REINVALIDATE_MS = 1_000;
const MAX_ENTRIES = 100_000;
const MAX_DROPPED = 10_000;

/** A device id: the computer user's UUID, lowercase (one DNS label). */
export const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Entry {
  value: Promise<DevicePolicy | undefined>;
  loadedAt: number;
  unsubscribe: (() => void) | undefined;
  /** the value has been read (it can be served while a fresher one is read) */
  settled: boolean;
  /** the value, once settled */
  current: DevicePolicy | undefined;
  /** a fresher value being read in the background */
  refreshing: boolean;
}

/** The family time zone's offset at `now`, as Date#getTimezoneOffset gives it (UTC when unknown). */
export function timeZoneOffsetMinutes(timeZone: string | null, now: Date): number {
  if (!timeZone) return 0;
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      timeZoneName: 'longOffset',
    }).formatToParts(now);
    const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
    const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
    if (!match) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
    return match[1] === '+' ? -minutes : minutes;
  } catch {
    return 0;
  }
}

export interface DevicePoliciesOptions {
  db: Db;
  clock: Clock;
  push: PushHub;
  /** the server's own names: always resolvable */
  serverHosts: string[];
}

export function createDevicePolicies(options: DevicePoliciesOptions): DevicePolicies {
  const { db, clock, push } = options;
  const entries = new Map<string, Entry>();
  const timers = new Set<NodeJS.Timeout>();
  const systemHosts = [...new Set([...options.serverHosts, ...CONNECTIVITY_CHECK_HOSTS])];

  /** what each policy was compiled from (JSON), so a refresh that reads the same keeps it */
  const sources = new WeakMap<DevicePolicy, string>();

  /**
   * The device's policy as the database has it now; `previous` itself when it was compiled from
   * the same (a refresh of an unchanged policy compiles nothing and keeps the objects the
   * resolver's hot path already knows).
   */
  async function load(
    deviceId: string,
    previous?: DevicePolicy,
  ): Promise<DevicePolicy | undefined> {
    const now = clock.now();
    const row = await db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .innerJoin('children as ch', 'ch.id', 'cu.child_id')
      .innerJoin('parents as p', 'p.id', 'ch.parent_id')
      .select([
        'cu.id',
        'cu.child_id',
        'ch.downtime',
        'p.time_zone',
        'ch.paused_at',
        'ch.paused_until',
      ])
      .where('cu.id', '=', deviceId)
      .where('c.kind', '=', 'dns')
      .executeTakeFirst();
    if (!row) return undefined;
    const [keychains, suspension] = await Promise.all([
      browserKeychains(db, row.child_id, now),
      activeBrowserSuspension(db, row.id, false, now),
    ]);
    const input = {
      keychains,
      downtime: row.downtime === null ? undefined : fromDbJson<PlainTimeWindow>(row.downtime),
      suspensionEndsAt: suspension?.endsAt,
      // issue 34: a pause blocks like downtime (PauseInternet pushes to the child's devices)
      pausedUntilMs:
        row.paused_at === null
          ? undefined
          : row.paused_until === null
            ? Number.POSITIVE_INFINITY
            : Date.parse(row.paused_until),
      timeZoneOffsetMinutes: timeZoneOffsetMinutes(row.time_zone, now),
      systemHosts,
      systemDomains: CONNECTIVITY_CHECK_DOMAINS,
    };
    const source = JSON.stringify([row.id, row.child_id, { ...input, systemHosts: undefined }]);
    if (previous && sources.get(previous) === source) return previous;
    const loaded = { deviceId: row.id, childId: row.child_id, policy: compileDnsPolicy(input) };
    sources.set(loaded, source);
    return loaded;
  }

  function drop(deviceId: string) {
    const entry = entries.get(deviceId);
    if (!entry) return;
    entry.unsubscribe?.();
    entries.delete(deviceId);
  }

  /**
   * The policy a push dropped, per device: the read that follows keeps it if nothing it is made of
   * changed (a push reaches all of a child's devices, whatever changed)
   */
  const dropped = new Map<string, DevicePolicy>();

  function invalidate(deviceId: string) {
    const current = entries.get(deviceId)?.current;
    if (current) {
      dropped.delete(deviceId);
      dropped.set(deviceId, current);
      if (dropped.size > MAX_DROPPED) {
        const oldest = dropped.keys().next().value;
        if (oldest !== undefined) dropped.delete(oldest);
      }
    }
    drop(deviceId);
    const timer = setTimeout(() => {
      timers.delete(timer);
      drop(deviceId);
    }, REINVALIDATE_MS);
    timer.unref();
    timers.add(timer);
  }

  function refresh(id: string, entry: Entry, current: DevicePolicy | undefined) {
    entry.refreshing = true;
    const startedAt = Date.now();
    load(id, current).then(
      (value) => {
        // dropped meanwhile (a push, a removal): the next query reads it again itself
        if (entries.get(id) !== entry) return;
        if (value !== entry.current) entry.value = Promise.resolve(value);
        entry.current = value;
        entry.loadedAt = startedAt;
        entry.refreshing = false;
      },
      () => {
        // the database is unreachable: the old policy is not kept past its age
        if (entries.get(id) === entry) drop(id);
      },
    );
  }

  return {
    get(deviceId) {
      const id = deviceId.toLowerCase();
      const now = Date.now();
      const cached = entries.get(id);
      if (cached && now - cached.loadedAt < MAX_AGE_MS) return cached.value;
      if (cached?.settled && now - cached.loadedAt < 2 * MAX_AGE_MS) {
        // old, not changed: answered from memory while it is read again (a read that has not
        // come back in a minute more is given up: the next query waits for a new one)
        if (!cached.refreshing) refresh(id, cached, cached.current);
        return cached.value;
      }
      if (cached) drop(id);
      if (entries.size >= MAX_ENTRIES) {
        // the oldest entry goes (a Map iterates in insertion order)
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) drop(oldest);
      }
      const previous = dropped.get(id);
      dropped.delete(id);
      const entry: Entry = {
        value: load(id, previous),
        loadedAt: now,
        unsubscribe: undefined,
        settled: false,
        current: undefined,
        refreshing: false,
      };
      // a known id is told of its changes; an unknown one simply ages out
      entry.unsubscribe = DEVICE_ID.test(id) ? push.subscribe(id, () => invalidate(id)) : undefined;
      entries.set(id, entry);
      entry.value.then(
        (value) => {
          entry.settled = true;
          entry.current = value;
        },
        () => {
          // a failed read is not remembered
          if (entries.get(id) === entry) drop(id);
        },
      );
      return entry.value;
    },
    isKnownNow(deviceId) {
      const cached = entries.get(deviceId.toLowerCase());
      if (cached === undefined) return false;
      const age = Date.now() - cached.loadedAt;
      // a policy being read again in the background still answers from memory
      return age < MAX_AGE_MS || (cached.settled && age < 2 * MAX_AGE_MS);
    },
    invalidate,
    size: () => entries.size,
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const id of [...entries.keys()]) drop(id);
      dropped.clear();
    },
  };
}
