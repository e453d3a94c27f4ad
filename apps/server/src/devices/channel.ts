import { randomUUID } from 'node:crypto';
import {
  AppToServerMessage,
  type DeviceMessage,
  type ServerMessage,
  toServerToAppMessage,
} from '@keyward/contract/device';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../db/database.ts';
import type { Clock } from '../services/clock.ts';
import type { PushHub } from '../services/push.ts';
import { hashToken } from '../services/tokens.ts';
import { findMacPrincipal, findMacTokenOwners, type MacPrincipal } from './device-auth.ts';
import { recordDeviceMessage, touchPresence, touchPresenceMany } from './presence.ts';

// The Mac push channel (server-behaviour §4.4), over WebSocket, where the Mac app opens it:
// `GET /app-websocket` with `Authorization: Bearer <token>` (also served at `/macos-app/channel`,
// and `X-UserToken` is accepted too). Messages both ways are the app's synthesized
// `WebSocketMessage` cases (docs/device-wire.md), converted at this edge.
// One connection per computer user: a newer one replaces the older. Every device message or ping
// is a sign of life written to device_presence; silent connections are closed.

export const CHANNEL_PATHS = ['/app-websocket', '/macos-app/channel'] as const;

/** The Mac token of a channel request: the app's `Authorization: Bearer`, or `X-UserToken`. */
export function channelToken(headers: FastifyRequest['headers']): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (bearer) return bearer[1];
  const header = headers['x-usertoken'];
  return typeof header === 'string' ? header.trim() : undefined;
}

export const CLOSE_TOKEN_NOT_FOUND = 4999;
export const CLOSE_REPLACED = 4000;
export const CLOSE_IDLE = 4001;
export const IDLE_AFTER_MS = 100_000;
export const IDLE_CHECK_EVERY_MS = 120_000;
/** The server is shutting down or restarting (RFC 6455 1012): the Mac reconnects after a pause. */
export const CLOSE_SHUTDOWN = 1012;
/** Cut off for flooding the channel or sending garbage (RFC 6455 1008, policy violation). */
export const CLOSE_FLOOD = 1008;

// A Mac sends a heartbeat every 90 s and a filter state when it changes. Far more than that (a
// stuck loop, a hostile client) would turn every frame into database writes: a connection may send
// FLOOD_BURST frames at once, refilled at FLOOD_REFILL_PER_MINUTE, and at most GARBAGE_LIMIT frames
// that are not device messages; beyond that it is closed with CLOSE_FLOOD. Frames larger than
// MAX_FRAME_BYTES close the connection at once (1009, by the WebSocket library).
export const FLOOD_BURST = 30;
export const FLOOD_REFILL_PER_MINUTE = 20;
export const GARBAGE_LIMIT = 5;
export const MAX_FRAME_BYTES = 4 * 1024;

// Heartbeats (and pings) are coalesced: each one is noted in memory with its own time, and every
// PRESENCE_FLUSH_MS the noted ones are written in one transaction, after one query that re-checks
// all their tokens. last_seen_at is the heartbeat's own time, written at most PRESENCE_FLUSH_MS
// later, so the 100-second offline rule holds (a Mac heartbeating every 90 s is never shown
// offline). Filter states and goingOffline are still written at once, after any flush in flight.
export const PRESENCE_FLUSH_MS = 1000;
const PRESENCE_SLICE = 200;

interface Connection {
  id: string;
  token: string;
  tokenHash: string;
  principal: MacPrincipal;
  socket: WebSocket;
  lastActivityAt: number;
  unsubscribe: () => void;
  /** Messages are applied in order (a state followed by goingOffline must end offline). */
  queue: Promise<void>;
  /** Flood control: frames still allowed now, refilled over time; frames that were garbage. */
  allowance: number;
  allowanceAt: number;
  garbage: number;
}

export interface DeviceChannel {
  /** Closes connections silent for IDLE_AFTER_MS or longer (by the injected clock). */
  closeIdleConnections(): number;
  /** Open connections, by computer-user id. */
  connectionCount(): number;
  /** Closes every connection with CLOSE_SHUTDOWN (graceful shutdown); returns how many. */
  closeAll(): number;
  /** Heartbeats noted and not written yet. */
  pendingPresence(): number;
  /** Writes the noted heartbeats now (also done every PRESENCE_FLUSH_MS). */
  flushPresence(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    deviceChannel: DeviceChannel;
  }
}

interface ChannelDeps {
  db: Db;
  clock: Clock;
  push: PushHub;
}

export async function registerDeviceChannel(app: FastifyInstance, deps: ChannelDeps) {
  const { db, clock, push } = deps;
  const instanceId = randomUUID();
  const connections = new Map<string, Connection>();
  const principals = new WeakMap<FastifyRequest, { token: string; principal: MacPrincipal }>();

  function send(connection: Connection, message: ServerMessage) {
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    connection.socket.send(JSON.stringify(toServerToAppMessage(message)));
  }

  function forget(connection: Connection) {
    connection.unsubscribe();
    if (connections.get(connection.principal.computerUserId) === connection) {
      connections.delete(connection.principal.computerUserId);
    }
  }

  function refuse(connection: Connection) {
    forget(connection);
    connection.socket.close(CLOSE_TOKEN_NOT_FOUND, 'userTokenNotFound');
  }

  const pending = new Map<string, { connection: Connection; at: Date }>();
  let flushing: Promise<void> = Promise.resolve();

  async function writePendingTouches() {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending.clear();
    // In slices, each its own transaction, yielding in between: on SQLite a write blocks the
    // event loop, and a push or a request must not wait for thousands of rows.
    for (let start = 0; start < batch.length; start += PRESENCE_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      await writeTouches(batch.slice(start, start + PRESENCE_SLICE));
    }
  }

  async function writeTouches(batch: { connection: Connection; at: Date }[]) {
    const owners = await findMacTokenOwners(db, clock, [
      ...new Set(batch.map((touch) => touch.connection.tokenHash)),
    ]);
    const touches = [];
    for (const { connection, at } of batch) {
      if (owners.get(connection.tokenHash) !== connection.principal.computerUserId) {
        refuse(connection); // token revoked or computer user deleted
        continue;
      }
      touches.push({
        computerUserId: connection.principal.computerUserId,
        lastSeenAt: at,
        connection: { connectionId: connection.id, instanceId },
      });
    }
    try {
      await touchPresenceMany(db, touches);
    } catch {
      // A computer user deleted since the token check fails the whole slice: one by one instead.
      for (const touch of touches) {
        await touchPresence(db, touch.computerUserId, touch.lastSeenAt, touch.connection).catch(
          () => {},
        );
      }
    }
    if (app.hasDecorator('metrics')) for (const _ of touches) app.metrics.deviceMessage();
  }

  function flushPresence(): Promise<void> {
    flushing = flushing
      .then(writePendingTouches)
      .catch((error) => app.log.warn({ err: error }, 'could not record device presence'));
    return flushing;
  }

  /** A sign of life: re-checks the token (deleted computer users are refused at once). */
  async function onActivity(connection: Connection, message: DeviceMessage | undefined) {
    connection.lastActivityAt = clock.now().getTime();
    const current = await findMacPrincipal(db, clock, connection.token);
    if (!current || current.computerUserId !== connection.principal.computerUserId) {
      refuse(connection);
      return;
    }
    const link = { connectionId: connection.id, instanceId };
    const now = clock.now();
    if (message === undefined) {
      await touchPresence(db, current.computerUserId, now, link);
    } else {
      await recordDeviceMessage(db, current.computerUserId, message, now, link);
    }
    if (app.hasDecorator('metrics')) app.metrics.deviceMessage();
  }

  const channel: DeviceChannel = {
    closeIdleConnections() {
      const now = clock.now().getTime();
      let closed = 0;
      for (const connection of [...connections.values()]) {
        if (now - connection.lastActivityAt >= IDLE_AFTER_MS) {
          forget(connection);
          connection.socket.close(CLOSE_IDLE, 'idle');
          closed++;
        }
      }
      return closed;
    },
    connectionCount: () => connections.size,
    pendingPresence: () => pending.size,
    flushPresence,
    closeAll() {
      const open = [...connections.values()];
      for (const connection of open) {
        forget(connection);
        connection.socket.close(CLOSE_SHUTDOWN, 'server restarting');
      }
      return open.length;
    },
  };
  app.decorate('deviceChannel', channel);

  const idleTimer = setInterval(() => channel.closeIdleConnections(), IDLE_CHECK_EVERY_MS);
  idleTimer.unref();
  const flushTimer = setInterval(flushPresence, PRESENCE_FLUSH_MS);
  flushTimer.unref();
  // Shutting down: every Mac is told to reconnect (to another instance, or to this one restarted).
  app.addHook('preClose', async () => {
    channel.closeAll();
    await flushPresence();
  });
  app.addHook('onClose', async () => {
    clearInterval(idleTimer);
    clearInterval(flushTimer);
    for (const connection of [...connections.values()]) forget(connection);
  });

  await app.register(async (scope) => {
    for (const path of CHANNEL_PATHS) {
      scope.get(
        path,
        {
          websocket: true,
          // Refused before the upgrade, as plain HTTP 401.
          preValidation: async (request, reply) => {
            const header = channelToken(request.headers);
            const principal = await findMacPrincipal(db, clock, header);
            if (!principal || header === undefined) {
              return reply
                .code(401)
                .type('application/json; charset=utf-8')
                .send(
                  JSON.stringify({
                    id: '6e88d0de',
                    type: 'unauthorized',
                    requestId: request.id,
                    debugMessage: 'User token not found',
                    appTag: 'userTokenNotFound',
                    showContactSupport: false,
                    statusCode: 401,
                    version: 1,
                  }),
                );
            }
            principals.set(request, { token: header, principal });
          },
        },
        (socket, request) => {
          const auth = principals.get(request);
          if (!auth) {
            socket.close(CLOSE_TOKEN_NOT_FOUND, 'userTokenNotFound');
            return;
          }
          const { computerUserId } = auth.principal;
          const connection: Connection = {
            id: randomUUID(),
            token: auth.token,
            tokenHash: hashToken(auth.token),
            principal: auth.principal,
            socket,
            lastActivityAt: clock.now().getTime(),
            unsubscribe: () => {},
            queue: Promise.resolve(),
            allowance: FLOOD_BURST,
            allowanceAt: clock.now().getTime(),
            garbage: 0,
          };

          const older = connections.get(computerUserId);
          if (older) {
            forget(older);
            older.socket.close(CLOSE_REPLACED, 'replaced by a newer connection');
          }
          connections.set(computerUserId, connection);
          connection.unsubscribe = push.subscribe(computerUserId, (message) => {
            send(connection, message);
            if (message.case === 'userDeleted') refuse(connection);
          });

          const log = request.log.child({ computerUserId, connectionId: connection.id });
          const handle = (message: DeviceMessage | undefined) => {
            if (message === undefined || message.case === 'heartbeat') {
              // Coalesced (PRESENCE_FLUSH_MS); the time noted is the heartbeat's own.
              connection.lastActivityAt = clock.now().getTime();
              pending.set(computerUserId, { connection, at: clock.now() });
              return;
            }
            // A state or goingOffline replaces a noted heartbeat and waits for a flush in flight,
            // so it is never overwritten by an older sign of life.
            pending.delete(computerUserId);
            const inFlight = flushing;
            connection.queue = connection.queue
              .then(() => inFlight)
              .then(() => onActivity(connection, message))
              .catch((error) => {
                // e.g. the computer user was deleted between the token check and the write
                log.warn({ err: error }, 'could not record device presence');
              });
          };

          const cutOff = (why: string) => {
            log.warn({ why }, 'cut off a Mac flooding its push channel');
            forget(connection);
            connection.socket.close(CLOSE_FLOOD, why);
          };
          /** Counts one frame against the allowance; false (and cut off) when over it. */
          const admit = (): boolean => {
            if (connections.get(computerUserId) !== connection) return false;
            const now = clock.now().getTime();
            const refill = ((now - connection.allowanceAt) / 60_000) * FLOOD_REFILL_PER_MINUTE;
            connection.allowance = Math.min(FLOOD_BURST, connection.allowance + refill);
            connection.allowanceAt = now;
            if (connection.allowance < 1) {
              cutOff('too many messages');
              return false;
            }
            connection.allowance -= 1;
            return true;
          };
          const garbage = (what: string) => {
            connection.garbage++;
            log.debug(`ignored a push-channel frame: ${what}`);
            if (connection.garbage > GARBAGE_LIMIT) cutOff('too many invalid messages');
          };

          socket.on('message', (data, isBinary) => {
            if (!admit()) return;
            if (isBinary) return garbage('binary');
            let parsed: ReturnType<typeof AppToServerMessage.safeParse>;
            try {
              parsed = AppToServerMessage.safeParse(JSON.parse(data.toString()));
            } catch {
              return garbage('not JSON');
            }
            if (!parsed.success) return garbage('not a device message');
            handle(parsed.data);
          });
          socket.on('ping', () => {
            if (admit()) handle(undefined);
          });
          socket.on('close', () => forget(connection));
        },
      );
    }
  });

  return channel;
}
