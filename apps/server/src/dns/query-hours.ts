import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { HOUR, toDbTime } from '../db/values.ts';
import { Cadence, chunksOf, type DeviceNotes, writeInChunks } from './device-writes.ts';

// Issue 33: how many queries each DNS device made, and how many were blocked, per hour
// (dns_query_hours, migration 0025), for "today's queries" on the device's page. A query only adds
// to a counter in memory; the counters are written every FLUSH_MS, one upsert per device and hour,
// so a flood costs no more rows than a quiet device; the devices of one write share its
// transactions. Rows are kept 48 hours (every time zone's "today" fits), deleted after that about
// every 10 minutes per device.

export const KEEP_HOURS_MS = 48 * HOUR;
const FLUSH_MS = 5_000;
/** device-hours written in one statement (4 parameters each) */
const ROWS_PER_WRITE = 100;
/** devices whose counts are written in one transaction */
const DEVICES_PER_TRANSACTION = 100;
/** a device's rows older than KEEP_HOURS_MS are deleted about this often */
const PRUNE_EVERY_MS = 10 * 60_000;
/** devices with counts waiting between two writes: more are dropped until the next write */
const MAX_PENDING_DEVICES = 20_000;

export interface QueryHours {
  note(deviceId: string, blocked: boolean, at: Date): void;
  flush(): Promise<void>;
  /** queries and blocked ones since `since` (rounded down to its hour) */
  since(deviceId: string, since: Date): Promise<{ queries: number; blocked: number }>;
  close(): Promise<void>;
}

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR) * HOUR);
}

export function createQueryHours(db: Db, log: FastifyBaseLogger): QueryHours {
  let pending = new Map<string, Map<number, { queries: number; blocked: number }>>();
  let flushing: Promise<void> = Promise.resolve();

  /** when each device's rows older than KEEP_HOURS_MS are next deleted */
  const prunes = new Cadence(PRUNE_EVERY_MS);

  async function writeDevices(
    devices: DeviceNotes<Map<number, { queries: number; blocked: number }>>[],
  ) {
    const nowMs = Date.now();
    const pruned: string[] = [];
    await db.transaction().execute(async (trx) => {
      // a statement per ROWS_PER_WRITE device-hours, over devices
      const rows = devices.flatMap(([deviceId, hours]) =>
        [...hours].map(([hour, { queries, blocked }]) => ({
          computer_user_id: deviceId,
          hour: toDbTime(new Date(hour)),
          queries,
          blocked,
        })),
      );
      for (let from = 0; from < rows.length; from += ROWS_PER_WRITE) {
        await trx
          .insertInto('dns_query_hours')
          .values(rows.slice(from, from + ROWS_PER_WRITE))
          .onConflict((oc) =>
            oc.columns(['computer_user_id', 'hour']).doUpdateSet((eb) => ({
              queries: eb('dns_query_hours.queries', '+', eb.ref('excluded.queries')),
              blocked: eb('dns_query_hours.blocked', '+', eb.ref('excluded.blocked')),
            })),
          )
          .execute();
      }
      for (const [deviceId, hours] of devices) {
        if (!prunes.isDue(deviceId, nowMs)) continue;
        const latest = Math.max(...hours.keys());
        await trx
          .deleteFrom('dns_query_hours')
          .where('computer_user_id', '=', deviceId)
          .where('hour', '<', toDbTime(new Date(latest - KEEP_HOURS_MS)))
          .execute();
        pruned.push(deviceId);
      }
    });
    for (const deviceId of pruned) prunes.done(deviceId, nowMs);
  }

  function write(batch: typeof pending) {
    // DEVICES_PER_TRANSACTION devices a transaction (one commit), not one each
    return writeInChunks(
      chunksOf(batch, DEVICES_PER_TRANSACTION, () => 1),
      writeDevices,
      (device, error) =>
        log.warn({ err: error, deviceId: device[0] }, 'Keyward DNS: could not keep query counts'),
    );
  }

  function flush(): Promise<void> {
    const batch = pending;
    pending = new Map();
    flushing = flushing.then(() => (batch.size > 0 ? write(batch) : undefined));
    return flushing;
  }

  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    note(deviceId, blocked, at) {
      let hours = pending.get(deviceId);
      if (!hours) {
        if (pending.size >= MAX_PENDING_DEVICES) return;
        hours = new Map();
        pending.set(deviceId, hours);
      }
      const hour = hourOf(at).getTime();
      const counts = hours.get(hour) ?? { queries: 0, blocked: 0 };
      counts.queries++;
      if (blocked) counts.blocked++;
      hours.set(hour, counts);
    },
    flush,
    since: (deviceId, since) => queriesSince(db, deviceId, since),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** A device's queries and blocked ones since `since` (rounded down to its hour). */
export async function queriesSince(
  db: Db,
  deviceId: string,
  since: Date,
): Promise<{ queries: number; blocked: number }> {
  const row = await db
    .selectFrom('dns_query_hours')
    .select((eb) => [
      eb.fn.sum<number | string | null>('queries').as('queries'),
      eb.fn.sum<number | string | null>('blocked').as('blocked'),
    ])
    .where('computer_user_id', '=', deviceId)
    .where('hour', '>=', toDbTime(hourOf(since)))
    .executeTakeFirst();
  return { queries: Number(row?.queries ?? 0), blocked: Number(row?.blocked ?? 0) };
}
