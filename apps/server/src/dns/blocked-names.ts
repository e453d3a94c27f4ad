import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';

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
const MAX_TRIM_DUE = 200_000;
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

  /** per device, when its rows are next trimmed (older than 24 hours, past MAX_PER_DEVICE) */
  const trimDue = new Map<string, number>();

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
  async function writeDevices(devices: [string, Map<string, { count: number; at: Date }>][]) {
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
        if ((trimDue.get(deviceId) ?? 0) > nowMs) continue;
        const latest = [...names.values()].reduce((a, b) => (a.at > b.at ? a : b)).at;
        await trim(trx, deviceId, latest);
        trimmed.push(deviceId);
      }
    });
    for (const deviceId of trimmed) {
      // about once a minute, at a point of its own (not every device in the same write)
      trimDue.delete(deviceId);
      trimDue.set(deviceId, nowMs + TRIM_EVERY_MS * (0.5 + Math.random()));
      if (trimDue.size > MAX_TRIM_DUE) {
        const oldest = trimDue.keys().next().value;
        if (oldest !== undefined) trimDue.delete(oldest);
      }
    }
  }

  async function write(batch: typeof pending) {
    // devices together, about ROWS_PER_TRANSACTION names a transaction: a thousand devices that
    // each asked a few names cost a few commits, not a thousand
    const chunks: [string, Map<string, { count: number; at: Date }>][][] = [];
    let chunk: [string, Map<string, { count: number; at: Date }>][] = [];
    let rows = 0;
    for (const device of batch) {
      chunk.push(device);
      rows += device[1].size;
      if (rows >= ROWS_PER_TRANSACTION) {
        chunks.push(chunk);
        chunk = [];
        rows = 0;
      }
    }
    if (chunk.length > 0) chunks.push(chunk);
    for (const devices of chunks) {
      // a turn of the event loop between transactions: SQLite writes hold it while they run
      await new Promise((resolve) => setImmediate(resolve));
      try {
        await writeDevices(devices);
      } catch {
        // a device removed meanwhile (its rows cascade away) fails its transaction: each device
        // of it on its own, so that the others' notes are kept
        for (const device of devices) {
          await new Promise((resolve) => setImmediate(resolve));
          try {
            await writeDevices([device]);
          } catch (error) {
            // that device removed, or the database down: the notes go
            log.warn({ err: error, deviceId: device[0] }, `Keyward DNS: could not keep ${table}`);
          }
        }
      }
    }
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
