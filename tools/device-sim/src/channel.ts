import { type DeviceMessage, toAppToServerMessage } from '@keyward/contract/device';
import { MAC_WEBSOCKET_PATH } from '@keyward/contract/swift-apps';
import WebSocket from 'ws';

// The push channel as the Mac app opens it: `GET /app-websocket` with `Authorization: Bearer
// <token>`, JSON text frames in the app's synthesized coding (`{"goingOffline": {}}` up,
// `{"userUpdated": {}}` down), and a WebSocket ping as the heartbeat.

/** Close code the server uses when the token is revoked while the socket is open (§2.8). */
export const CONNECTION_REMOVED_CLOSE_CODE = 4999;

/** Close code of a server shutting down or restarting (RFC 6455): the app reconnects after a pause. */
export const SERVER_RESTART_CLOSE_CODE = 1012;

/** The first pause before reconnecting, doubled after each failed try, up to the longest. */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_LONGEST_MS = 30_000;

/**
 * The pause before reconnection try `attempt` (0 for the first): 1 s, 2 s, 4 s … up to 30 s, each
 * ±20% so Macs dropped by one restart do not all come back at the same instant.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_LONGEST_MS, RECONNECT_FIRST_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export type ChannelEnd =
  | { reason: 'stopped' }
  | { reason: 'connectionRemoved' }
  | { reason: 'closed'; detail: string };

export interface Channel {
  /** resolves when the socket is open; never rejects (a failure shows in `ended`) */
  opened: Promise<boolean>;
  ended: Promise<ChannelEnd>;
  send(message: DeviceMessage): void;
  /** the app's heartbeat: a WebSocket ping */
  ping(): void;
  /** ends with `stopped` */
  stop(): void;
}

export function channelUrl(serverUrl: string): string {
  const url = new URL(`${serverUrl.replace(/\/+$/, '')}${MAC_WEBSOCKET_PATH}`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export function openChannel(options: {
  serverUrl: string;
  token: string;
  onText(text: string): void;
}): Channel {
  const socket = new WebSocket(channelUrl(options.serverUrl), {
    headers: { Authorization: `Bearer ${options.token.toUpperCase()}` },
  });
  let isStopping = false;
  let settle: (end: ChannelEnd) => void = () => {};
  const ended = new Promise<ChannelEnd>((resolve) => {
    let isSettled = false;
    settle = (end) => {
      if (isSettled) return;
      isSettled = true;
      resolve(end);
    };
  });
  const opened = new Promise<boolean>((resolve) => {
    socket.once('open', () => resolve(true));
    void ended.then(() => resolve(false));
  });

  socket.on('message', (data, isBinary) => {
    if (!isBinary) options.onText(data.toString());
  });
  // Registering this listener makes ws report a refused upgrade here instead of as an error.
  socket.on('unexpected-response', (_request, response) => {
    const status = response.statusCode ?? 0;
    settle(
      status === 401
        ? { reason: 'connectionRemoved' }
        : { reason: 'closed', detail: `the server refused the push channel (HTTP ${status})` },
    );
    response.resume();
    socket.terminate();
  });
  socket.on('error', (error) => {
    settle(isStopping ? { reason: 'stopped' } : { reason: 'closed', detail: error.message });
  });
  socket.on('close', (code, reason) => {
    if (isStopping) return settle({ reason: 'stopped' });
    if (code === CONNECTION_REMOVED_CLOSE_CODE) return settle({ reason: 'connectionRemoved' });
    const text = reason.toString();
    settle({
      reason: 'closed',
      detail: `closed by the server (code ${code}${text ? `, ${text}` : ''})`,
    });
  });

  return {
    opened,
    ended,
    send(message) {
      if (socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(toAppToServerMessage(message)));
      }
    },
    ping() {
      if (socket.readyState === WebSocket.OPEN) socket.ping();
    },
    stop() {
      isStopping = true;
      if (socket.readyState === WebSocket.OPEN) {
        socket.close(1000, 'going offline');
        // A server that never answers the close handshake must not keep us alive.
        setTimeout(() => socket.terminate(), 2000).unref();
      } else {
        socket.terminate();
        settle({ reason: 'stopped' });
      }
    },
  };
}
