import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';
import { Cadence, chunksOf, type DeviceNotes, writeInChunks } from './device-writes.ts';

// Issue 33: the names Keyward DNS blocked on each device, kept 24 hours and at most
// MAX_PER_DEVICE per device (dns_blocked_names), for the child's /ask/<device id> page. A blocked
// query only notes the name in memory; the notes are written every FLUSH_MS in one batch per
// device, so a flood of blocked queries costs a few writes, not one per query; the devices of one
// write share its transactions, and each device's rows are trimmed about once a minute.
// The same code keeps the names a device resolved (dns_allowed_names, migration 0025) for the
// device's page: its top allowed and blocked names. A name's count adds up while it is asked
// without a 24-hour gap (then its row is deleted and counting starts again).

export const KEEP_MS = 24 * 60 * 60 * 1000;
export const MAX_PER_DEVICE = 200;
const FLUSH_MS = 2_000;
/** names written in one statement (4 parameters each) */
const ROWS_PER_WRITE = 100;
/** names written in one transaction, over devices */
const ROWS_PER_TRANSACTION = 200;
/**
 * A device's rows are trimmed (older than KEEP_MS, past MAX_PER_DEVICE) about this often, not on
 * every write: in between a device adds at most its query budget of names; reads go by the time
 */
const TRIM_EVERY_MS = 60_000;
/** names noted between two writes, over every device: more are dropped until the next write */
const MAX_PENDING = 20_000;

export interface BlockedName {
  name: string;
  count: number;
  lastAt: Date;
}

export interface BlockedNames {
  note(deviceId: string, name: string, at: Date): void;
  /** writes what is noted now (tests; and before close) */
  flush(): Promise<void>;
  list(deviceId: string, now: Date, limit?: number): Promise<BlockedName[]>;
  /** the names asked most in the last 24 hours, most first */
  top(deviceId: string, now: Date, limit: number): Promise<BlockedName[]>;
  close(): Promise<void>;
}

export type NamesTable = 'dns_blocked_names' | 'dns_allowed_names';

export function createBlockedNames(
  db: Db,
  log: FastifyBaseLogger,
  table: NamesTable = 'dns_blocked_names',
): BlockedNames {
  let pending = new Map<string, Map<string, { count: number; at: Date }>>();
  let pendingCount = 0;
  let flushing: Promise<void> = Promise.resolve();

  /** when each device's rows are next trimmed (older than 24 hours, past MAX_PER_DEVICE) */
  const trims = new Cadence(TRIM_EVERY_MS);

  async function trim(trx: Db, deviceId: string, latest: Date) {
    await trx
      .deleteFrom(table)
      .where('computer_user_id', '=', deviceId)
      .where('last_at', '<', toDbTime(new Date(latest.getTime() - KEEP_MS)))
      .execute();
    const kept = await trx
      .selectFrom(table)
      .select('name')
      .where('computer_user_id', '=', deviceId)
      .orderBy('last_at', 'desc')
      .orderBy('name')
      .offset(MAX_PER_DEVICE)
      .limit(1_000)
      .execute();
    if (kept.length > 0) {
      await trx
        .deleteFrom(table)
        .where('computer_user_id', '=', deviceId)
        .where(
          'name',
          'in',
          kept.map((row) => row.name),
        )
        .execute();
    }
  }

  /** one transaction (one commit) for the names of several devices */
  async function writeDevices(devices: DeviceNotes<Map<string, { count: number; at: Date }>>[]) {
    const nowMs = Date.now();
    const trimmed: string[] = [];
    await db.transaction().execute(async (trx) => {
      // one statement per ROWS_PER_WRITE names, over devices, not one per name
      const rows = devices.flatMap(([deviceId, names]) =>
        [...names].map(([name, { count, at }]) => ({
          computer_user_id: deviceId,
          name,
          count,
          last_at: toDbTime(at),
        })),
      );
      // a row last asked over 24 hours before is counted again from this write's count (its trim
      // may not have come yet)
      const earliest = devices
        .flatMap(([, names]) => [...names.values()].map(({ at }) => at.getTime()))
        .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
      const stale = toDbTime(new Date(earliest - KEEP_MS));
      for (let from = 0; from < rows.length; from += ROWS_PER_WRITE) {
        await trx
          .insertInto(table)
          .values(rows.slice(from, from + ROWS_PER_WRITE))
          .onConflict((oc) =>
            oc.columns(['computer_user_id', 'name']).doUpdateSet((eb) => ({
              count: eb
                .case()
                .when(`${table}.last_at`, '<', stale)
                .then(eb.ref('excluded.count'))
                .else(eb(`${table}.count`, '+', eb.ref('excluded.count')))
                .end(),
              last_at: eb.ref('excluded.last_at'),
            })),
          )
          .execute();
      }
      for (const [deviceId, names] of devices) {
        if (!trims.isDue(deviceId, nowMs)) continue;
        const latest = [...names.values()].reduce((a, b) => (a.at > b.at ? a : b)).at;
        await trim(trx, deviceId, latest);
        trimmed.push(deviceId);
      }
    });
    for (const deviceId of trimmed) trims.done(deviceId, nowMs);
  }

  function write(batch: typeof pending) {
    // devices together, about ROWS_PER_TRANSACTION names a transaction: a thousand devices that
    // each asked a few names cost a few commits, not a thousand
    return writeInChunks(
      chunksOf(batch, ROWS_PER_TRANSACTION, (names) => names.size),
      writeDevices,
      (device, error) =>
        log.warn({ err: error, deviceId: device[0] }, `Keyward DNS: could not keep ${table}`),
    );
  }

  function flush(): Promise<void> {
    const batch = pending;
    pending = new Map();
    pendingCount = 0;
    flushing = flushing.then(() => (batch.size > 0 ? write(batch) : undefined));
    return flushing;
  }

  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    note(deviceId, name, at) {
      let names = pending.get(deviceId);
      const existing = names?.get(name);
      if (existing) {
        existing.count++;
        existing.at = at;
        return;
      }
      if (pendingCount >= MAX_PENDING || (names && names.size >= MAX_PER_DEVICE)) return;
      if (!names) {
        names = new Map();
        pending.set(deviceId, names);
      }
      names.set(name, { count: 1, at });
      pendingCount++;
    },
    flush,
    list: (deviceId, now, limit = 50) => readNames(db, table, deviceId, now, 'recent', limit),
    top: (deviceId, now, limit) => readNames(db, table, deviceId, now, 'top', limit),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** A device's names of the last 24 hours: the most recent first, or the most asked first. */
export async function readNames(
  db: Db,
  table: NamesTable,
  deviceId: string,
  now: Date,
  order: 'recent' | 'top',
  limit: number,
): Promise<BlockedName[]> {
  let query = db
    .selectFrom(table)
    .select(['name', 'count', 'last_at'])
    .where('computer_user_id', '=', deviceId)
    .where('last_at', '>', toDbTime(new Date(now.getTime() - KEEP_MS)));
  query =
    order === 'top'
      ? query.orderBy('count', 'desc').orderBy('name')
      : query.orderBy('last_at', 'desc').orderBy('name');
  const rows = await query.limit(limit).execute();
  return rows.map((row) => ({
    name: row.name,
    count: Number(row.count),
    lastAt: new Date(row.last_at),
  }));
}
