import { randomUUID } from 'node:crypto';
import type { ServerMessage } from '@keyward/contract/device';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.ts';

// Server → Mac push (server-behaviour §4.4). Targets are resolved from the database at call time,
// then delivered to the push-channel connections of this instance at once; on PostgreSQL the same
// message is also published with NOTIFY on `device_push` so every other instance forwards it to the
// connections it holds. SQLite deployments are single-instance and dispatch in process only.
// Push is best effort: nothing here ever throws into an operation.

export type PushListener = (message: ServerMessage) => void;

export interface PushHub {
  /** One or more Macs (computer-user ids). */
  toComputerUsers(computerUserIds: string[], message: ServerMessage): Promise<void>;
  /** All Macs of these children. */
  toChildren(childIds: string[], message: ServerMessage): Promise<void>;
  /** All computer users of one computer. */
  toComputer(computerId: string, message: ServerMessage): Promise<void>;
  /** Macs of the children currently assigned the keychain. */
  toKeychainHolders(keychainId: string, message: ServerMessage): Promise<void>;
  /** In-process delivery for one computer user (the push channel, and tests). */
  subscribe(computerUserId: string, listener: PushListener): () => void;
  /** Connects the LISTEN client on PostgreSQL; no-op on SQLite. */
  start(): Promise<void>;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's push hub (also `ctx.services.push`); tests push and subscribe through it. */
    push: PushHub;
  }
}

export const PUSH_CHANNEL = 'device_push';

interface Envelope {
  /** instance that sent it: it has already delivered locally */
  from: string;
  ids: string[];
  message: ServerMessage;
}

// NOTIFY payloads are limited to 8000 bytes; 36-char ids in batches of 100 stay well below.
const IDS_PER_NOTIFY = 100;

export interface PushHubOptions {
  db: Db;
  /** PostgreSQL URL, or undefined for SQLite. */
  databaseUrl: string | undefined;
  log: FastifyBaseLogger;
}

export function createPushHub({ db, databaseUrl, log }: PushHubOptions): PushHub {
  const instanceId = randomUUID();
  const listeners = new Map<string, Set<PushListener>>();
  let listenClient: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelayMs = 1000;
  let isClosed = false;

  function deliverLocally(ids: string[], message: ServerMessage) {
    for (const id of ids) {
      for (const listener of listeners.get(id) ?? []) {
        try {
          listener(message);
        } catch (error) {
          log.warn({ err: error, computerUserId: id }, 'push listener failed');
        }
      }
    }
  }

  async function publish(ids: string[], message: ServerMessage) {
    if (databaseUrl === undefined) return;
    for (let start = 0; start < ids.length; start += IDS_PER_NOTIFY) {
      const envelope: Envelope = {
        from: instanceId,
        ids: ids.slice(start, start + IDS_PER_NOTIFY),
        message,
      };
      await sql`select pg_notify(${PUSH_CHANNEL}, ${JSON.stringify(envelope)})`.execute(db);
    }
  }

  async function toComputerUsers(computerUserIds: string[], message: ServerMessage) {
    const ids = [...new Set(computerUserIds.map((id) => id.toLowerCase()))];
    if (ids.length === 0) return;
    deliverLocally(ids, message);
    try {
      await publish(ids, message);
    } catch (error) {
      log.warn({ err: error }, 'could not publish push message');
    }
  }

  async function resolveAndSend(
    describe: string,
    findIds: () => Promise<{ id: string }[]>,
    message: ServerMessage,
  ) {
    let rows: { id: string }[];
    try {
      rows = await findIds();
    } catch (error) {
      log.warn({ err: error, target: describe }, 'could not resolve push targets');
      return;
    }
    await toComputerUsers(
      rows.map((row) => row.id),
      message,
    );
  }

  function onNotification(notification: pg.Notification) {
    if (notification.channel !== PUSH_CHANNEL || !notification.payload) return;
    try {
      const envelope = JSON.parse(notification.payload) as Envelope;
      if (envelope.from === instanceId || !Array.isArray(envelope.ids)) return;
      deliverLocally(envelope.ids, envelope.message);
    } catch (error) {
      log.warn({ err: error }, 'malformed device_push notification');
    }
  }

  function scheduleReconnect() {
    if (isClosed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connectListener();
    }, reconnectDelayMs);
    reconnectTimer.unref();
    reconnectDelayMs = Math.min(reconnectDelayMs * 2, 30_000);
  }

  async function connectListener() {
    if (isClosed || databaseUrl === undefined) return;
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', onNotification);
    client.on('error', (error) => {
      if (!isClosed) log.warn({ err: error }, 'push LISTEN connection failed; reconnecting');
      if (listenClient === client) listenClient = undefined;
      client.end().catch(() => {});
      scheduleReconnect();
    });
    client.on('end', () => {
      if (listenClient === client) listenClient = undefined;
      scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PUSH_CHANNEL}`);
      if (isClosed) {
        await client.end();
        return;
      }
      listenClient = client;
      reconnectDelayMs = 1000;
    } catch (error) {
      log.warn({ err: error }, 'could not LISTEN for push messages; retrying');
      client.end().catch(() => {});
      scheduleReconnect();
    }
  }

  return {
    toComputerUsers,
    toChildren(childIds, message) {
      if (childIds.length === 0) return Promise.resolve();
      return resolveAndSend(
        'children',
        () =>
          db.selectFrom('computer_users').select('id').where('child_id', 'in', childIds).execute(),
        message,
      );
    },
    toComputer(computerId, message) {
      return resolveAndSend(
        'computer',
        () =>
          db
            .selectFrom('computer_users')
            .select('id')
            .where('computer_id', '=', computerId)
            .execute(),
        message,
      );
    },
    toKeychainHolders(keychainId, message) {
      return resolveAndSend(
        'keychain holders',
        () =>
          db
            .selectFrom('computer_users as cu')
            .innerJoin('child_keychains as ck', 'ck.child_id', 'cu.child_id')
            .select('cu.id')
            .where('ck.keychain_id', '=', keychainId)
            .execute(),
        message,
      );
    },
    subscribe(computerUserId, listener) {
      const id = computerUserId.toLowerCase();
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      return () => {
        const current = listeners.get(id);
        current?.delete(listener);
        if (current?.size === 0) listeners.delete(id);
      };
    },
    async start() {
      await connectListener();
    },
    async close() {
      isClosed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      listeners.clear();
      const client = listenClient;
      listenClient = undefined;
      if (client) await client.end().catch(() => {});
    },
  };
}
