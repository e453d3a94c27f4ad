import type { DeviceMessage, FilterState } from '@keyward/contract/device';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { toDbJson, toDbTime } from '../db/values.ts';

// device_presence (server-behaviour §4.4): one row per computer user that is (or was recently)
// online. Written by the push channel and the Heartbeat operation; read by devices/status.ts (§4.5).

export interface PresenceConnection {
  connectionId: string;
  instanceId: string;
}

/**
 * Applies one device message: a heartbeat refreshes last_seen_at, a filter state also stores the
 * state, goingOffline forgets the computer user's presence.
 */
export async function recordDeviceMessage(
  db: Db,
  computerUserId: string,
  message: DeviceMessage,
  now: Date,
  connection?: PresenceConnection,
): Promise<void> {
  switch (message.case) {
    case 'heartbeat':
      return touchPresence(db, computerUserId, now, connection);
    case 'currentFilterState_v2':
      return upsertPresence(db, computerUserId, now, message.state, connection);
    case 'goingOffline':
      await db
        .deleteFrom('device_presence')
        .where('computer_user_id', '=', computerUserId)
        .execute();
      return;
  }
}

/** A sign of life (heartbeat or WebSocket ping) that keeps the last reported filter state. */
export function touchPresence(
  db: Db,
  computerUserId: string,
  now: Date,
  connection?: PresenceConnection,
): Promise<void> {
  return upsertPresence(db, computerUserId, now, undefined, connection);
}

async function upsertPresence(
  db: Db,
  computerUserId: string,
  now: Date,
  state: FilterState | undefined,
  connection: PresenceConnection | undefined,
): Promise<void> {
  const lastSeenAt = toDbTime(now);
  const filterState = state === undefined ? null : toDbJson(state);
  const link = connection
    ? { connection_id: connection.connectionId, instance_id: connection.instanceId }
    : {};
  await db
    .insertInto('device_presence')
    .values({
      computer_user_id: computerUserId,
      last_seen_at: lastSeenAt,
      filter_state: filterState,
      connection_id: connection?.connectionId ?? null,
      instance_id: connection?.instanceId ?? null,
    })
    .onConflict((oc) =>
      oc.column('computer_user_id').doUpdateSet({
        last_seen_at: lastSeenAt,
        ...(filterState === null ? {} : { filter_state: filterState }),
        ...link,
      }),
    )
    .execute();
}

export interface PresenceTouch {
  computerUserId: string;
  lastSeenAt: Date;
  connection: PresenceConnection;
}

const TOUCHES_PER_STATEMENT = 500;

/**
 * Many signs of life in one transaction (the push channel's coalesced heartbeats): each row gets
 * its own last_seen_at and connection, and keeps its last reported filter state.
 */
export async function touchPresenceMany(db: Db, touches: PresenceTouch[]): Promise<void> {
  if (touches.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < touches.length; start += TOUCHES_PER_STATEMENT) {
      const rows = touches.slice(start, start + TOUCHES_PER_STATEMENT).map((touch) => ({
        computer_user_id: touch.computerUserId,
        last_seen_at: toDbTime(touch.lastSeenAt),
        filter_state: null,
        connection_id: touch.connection.connectionId,
        instance_id: touch.connection.instanceId,
      }));
      await trx
        .insertInto('device_presence')
        .values(rows)
        .onConflict((oc) =>
          oc.column('computer_user_id').doUpdateSet({
            last_seen_at: sql.ref('excluded.last_seen_at'),
            connection_id: sql.ref('excluded.connection_id'),
            instance_id: sql.ref('excluded.instance_id'),
          }),
        )
        .execute();
    }
  });
}
