import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';

// Issue 33: the names Keyward DNS blocked on each device, kept 24 hours and at most
// MAX_PER_DEVICE per device (dns_blocked_names), for the child's /ask/<device id> page. A blocked
// query only notes the name in memory; the notes are written every FLUSH_MS in one batch per
// device, so a flood of blocked queries costs a few writes, not one per query.

export const KEEP_MS = 24 * 60 * 60 * 1000;
export const MAX_PER_DEVICE = 200;
const FLUSH_MS = 2_000;
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
  close(): Promise<void>;
}

export function createBlockedNames(db: Db, log: FastifyBaseLogger): BlockedNames {
  let pending = new Map<string, Map<string, { count: number; at: Date }>>();
  let pendingCount = 0;
  let flushing: Promise<void> = Promise.resolve();

  async function write(batch: typeof pending) {
    for (const [deviceId, names] of batch) {
      try {
        await db.transaction().execute(async (trx) => {
          for (const [name, { count, at }] of names) {
            await trx
              .insertInto('dns_blocked_names')
              .values({ computer_user_id: deviceId, name, count, last_at: toDbTime(at) })
              .onConflict((oc) =>
                oc.columns(['computer_user_id', 'name']).doUpdateSet((eb) => ({
                  count: eb('dns_blocked_names.count', '+', count),
                  last_at: toDbTime(at),
                })),
              )
              .execute();
          }
          const latest = [...names.values()].reduce((a, b) => (a.at > b.at ? a : b)).at;
          await trx
            .deleteFrom('dns_blocked_names')
            .where('computer_user_id', '=', deviceId)
            .where('last_at', '<', toDbTime(new Date(latest.getTime() - KEEP_MS)))
            .execute();
          const kept = await trx
            .selectFrom('dns_blocked_names')
            .select('name')
            .where('computer_user_id', '=', deviceId)
            .orderBy('last_at', 'desc')
            .orderBy('name')
            .offset(MAX_PER_DEVICE)
            .limit(1_000)
            .execute();
          if (kept.length > 0) {
            await trx
              .deleteFrom('dns_blocked_names')
              .where('computer_user_id', '=', deviceId)
              .where(
                'name',
                'in',
                kept.map((row) => row.name),
              )
              .execute();
          }
        });
      } catch (error) {
        // a device removed meanwhile (its rows cascade away), or the database down: the notes go
        log.warn({ err: error, deviceId }, 'Keyward DNS: could not keep blocked names');
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
    async list(deviceId, now, limit = 50) {
      const rows = await db
        .selectFrom('dns_blocked_names')
        .select(['name', 'count', 'last_at'])
        .where('computer_user_id', '=', deviceId)
        .where('last_at', '>', toDbTime(new Date(now.getTime() - KEEP_MS)))
        .orderBy('last_at', 'desc')
        .orderBy('name')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        name: row.name,
        count: Number(row.count),
        lastAt: new Date(row.last_at),
      }));
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
