import { existsSync } from 'node:fs';
import { createPublicKey } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type BrowserChannelMessage,
  BrowserChannelFrame,
  type BrowserFilterState,
} from '@keyward/contract/browser';
import type { ServerMessage } from '@keyward/contract/device';
import { BROWSER_SECURITY_EVENT_NAMES } from '@keyward/domain/security-events';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { ZipFile } from 'yazl';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { recordBrowserSecurityEvent } from '../devices/browser-security-events.ts';
import {
  isUninstallKey,
  loadBrowserSuspensionRequest,
  loadBrowserUnlockRequests,
} from '../devices/browsers.ts';
import { findBrowserPrincipal } from '../devices/device-auth.ts';
import { recordDeviceMessage, touchPresence } from '../devices/presence.ts';
import type { RequestContext, Services } from '../pairql/context.ts';
import type { Clock } from '../services/clock.ts';
import { clientIp } from '../services/client-ip.ts';
import {
  browserFilterSigningKey,
  extensionIdOf,
  packCrx3,
  updateManifest,
} from '../services/crx.ts';
import { isUuid } from '../services/tokens.ts';

// Issue 22: Keyward for Chrome's HTTP side (its operations are PairQL, operations/browser/):
//   GET /browser-filter/channel        its push channel (WebSocket; a browser cannot set headers,
//                                      so the first frame says who it is: {"type":"hello",token})
//   GET /browser-filter/uninstalled    the page Chrome opens when the extension is removed
//   GET /downloads/keyward-chrome.zip  the extension, with this server's address filled in

export const BROWSER_CHANNEL_PATH = '/browser-filter/channel';
export const BROWSER_DOWNLOAD_PATH = '/downloads/keyward-chrome.zip';
export const BROWSER_CRX_PATH = '/downloads/keyward-chrome.crx';
export const BROWSER_UPDATES_PATH = '/downloads/keyward-chrome-updates.xml';
export const CLOSE_TOKEN_NOT_FOUND = 4999;
export const CLOSE_REPLACED = 4000;
export const CLOSE_IDLE = 4001;
const CLOSE_FLOOD = 1008;
/** the extension pings every 20 s; a silent socket is closed after this long */
export const BROWSER_IDLE_AFTER_MS = 70_000;
const HELLO_WITHIN_MS = 10_000;
export const MAX_FRAME_BYTES = 1024;
/** frames a connection may send in a burst, then per minute (a ping every 20 s is 3) */
const FLOOD_BURST = 20;
const FLOOD_REFILL_PER_MINUTE = 12;
/** presence is written at most this often per browser (a ping is a sign of life, not a write) */
const PRESENCE_EVERY_MS = 15_000;

interface BrowserFilterDeps {
  db: Db;
  config: Config;
  clock: Clock;
  services: Services;
}

interface Connection {
  socket: WebSocket;
  computerUserId: string;
  lastFrameAt: number;
  presenceAt: number;
  /** the filter state last written for this connection (JSON), to write only changes */
  stateWritten?: string;
  allowance: number;
  allowanceAt: number;
  unsubscribe: () => void;
}

/** What a push to the child's computer user means on the browser's wire (undefined: nothing). */
async function toBrowserMessage(
  db: Db,
  computerUserId: string,
  message: ServerMessage,
): Promise<BrowserChannelMessage | undefined> {
  switch (message.case) {
    case 'userUpdated':
      return { type: 'rulesChanged' };
    case 'userDeleted':
      return { type: 'disconnected' };
    case 'unlockRequestUpdated_v2': {
      const [request] = await loadBrowserUnlockRequests(db, computerUserId, [message.id]);
      return request ? { type: 'unlockRequestDecided', request } : undefined;
    }
    case 'filterSuspensionRequestDecided_v2': {
      const request = await loadBrowserSuspensionRequest(db, computerUserId, message.id);
      return request ? { type: 'suspensionDecided', request } : undefined;
    }
    case 'currentFilterStateRequested':
      return undefined;
  }
}

export async function registerBrowserFilter(app: FastifyInstance, deps: BrowserFilterDeps) {
  const { db, clock, services } = deps;
  const connections = new Map<string, Connection>();

  const forget = (connection: Connection) => {
    connection.unsubscribe();
    if (connections.get(connection.computerUserId) === connection) {
      connections.delete(connection.computerUserId);
    }
  };
  const idleTimer = setInterval(() => {
    const now = clock.now().getTime();
    for (const connection of [...connections.values()]) {
      if (now - connection.lastFrameAt >= BROWSER_IDLE_AFTER_MS) {
        forget(connection);
        connection.socket.close(CLOSE_IDLE, 'idle');
      }
    }
  }, 10_000);
  idleTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(idleTimer);
    for (const connection of [...connections.values()]) {
      forget(connection);
      connection.socket.close(1012, 'server restarting');
    }
  });

  await app.register(async (scope) => {
    scope.get(BROWSER_CHANNEL_PATH, { websocket: true }, (socket, request) => {
      const log = request.log.child({ channel: 'browser' });
      let connection: Connection | undefined;
      const helloTimer = setTimeout(() => {
        if (!connection) socket.close(CLOSE_TOKEN_NOT_FOUND, 'no hello');
      }, HELLO_WITHIN_MS);
      socket.on('close', () => {
        clearTimeout(helloTimer);
        if (connection) forget(connection);
      });

      const admit = (open: Connection): boolean => {
        const now = clock.now().getTime();
        const refilled = ((now - open.allowanceAt) / 60_000) * FLOOD_REFILL_PER_MINUTE;
        open.allowance = Math.min(FLOOD_BURST, open.allowance + refilled);
        open.allowanceAt = now;
        if (open.allowance < 1) {
          log.warn(
            { computerUserId: open.computerUserId },
            'cut off a browser flooding its channel',
          );
          forget(open);
          socket.close(CLOSE_FLOOD, 'too many frames');
          return false;
        }
        open.allowance -= 1;
        open.lastFrameAt = now;
        return true;
      };

      const noteAlive = (open: Connection) => {
        const now = clock.now();
        if (now.getTime() - open.presenceAt < PRESENCE_EVERY_MS) return;
        open.presenceAt = now.getTime();
        touchPresence(db, open.computerUserId, now).catch((error) =>
          log.warn({ err: error }, 'could not record browser presence'),
        );
      };

      // Issue 32: the state the extension applies, so a connected browser is not "Offline". A
      // change is written at once (the flood budget above bounds how often); the same state is a
      // sign of life like a bare ping.
      const noteState = (open: Connection, state: BrowserFilterState) => {
        const written = JSON.stringify(state);
        if (written === open.stateWritten) return noteAlive(open);
        const now = clock.now();
        open.presenceAt = now.getTime();
        open.stateWritten = written;
        recordDeviceMessage(
          db,
          open.computerUserId,
          { case: 'currentFilterState_v2', state },
          now,
        ).catch((error) => {
          open.stateWritten = undefined;
          log.warn({ err: error }, 'could not record browser filter state');
        });
      };

      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
        // the server's WebSocket limit is the Macs' larger one (app.ts): a browser's is this one
        const size = Array.isArray(data)
          ? data.reduce((sum, part) => sum + part.length, 0)
          : data.byteLength;
        if (size > MAX_FRAME_BYTES) {
          if (connection) forget(connection);
          socket.close(1009, 'frame too large');
          return;
        }
        let frame: BrowserChannelFrame | undefined;
        try {
          const parsed = BrowserChannelFrame.safeParse(JSON.parse(String(data)));
          frame = parsed.success ? parsed.data : undefined;
        } catch {
          frame = undefined;
        }
        if (connection) {
          if (!admit(connection)) return;
          if (frame?.type === 'ping') {
            if (frame.state) noteState(connection, frame.state);
            else noteAlive(connection);
          }
          return;
        }
        if (frame?.type !== 'hello') {
          socket.close(CLOSE_TOKEN_NOT_FOUND, 'the first frame must be hello');
          return;
        }
        const token = frame.token;
        void findBrowserPrincipal(db, clock, token).then(
          (principal) => {
            clearTimeout(helloTimer);
            if (!principal) {
              socket.close(CLOSE_TOKEN_NOT_FOUND, 'browserTokenNotFound');
              return;
            }
            if (socket.readyState !== socket.OPEN) return;
            const { computerUserId } = principal;
            const open: Connection = {
              socket,
              computerUserId,
              lastFrameAt: clock.now().getTime(),
              presenceAt: 0,
              allowance: FLOOD_BURST,
              allowanceAt: clock.now().getTime(),
              unsubscribe: () => {},
            };
            const older = connections.get(computerUserId);
            if (older) {
              forget(older);
              older.socket.close(CLOSE_REPLACED, 'replaced by a newer connection');
            }
            connections.set(computerUserId, open);
            connection = open;
            open.unsubscribe = services.push.subscribe(computerUserId, (message) => {
              void toBrowserMessage(db, computerUserId, message).then(
                (translated) => {
                  if (translated && socket.readyState === socket.OPEN) {
                    socket.send(JSON.stringify(translated));
                  }
                  if (message.case === 'userDeleted') {
                    forget(open);
                    socket.close(CLOSE_TOKEN_NOT_FOUND, 'browserTokenNotFound');
                  }
                },
                (error) => log.warn({ err: error }, 'could not push to a browser'),
              );
            });
            noteAlive(open);
            socket.send(JSON.stringify({ type: 'welcome' }));
          },
          (error) => {
            log.error({ err: error }, 'browser channel hello failed');
            socket.close(1011, 'server error');
          },
        );
      });
    });
  });

  // Chrome opens this page when the extension is removed (chrome.runtime.setUninstallURL). Its key
  // is the server's HMAC of the browser's id, so nobody else can raise the event for a browser.
  app.get<{ Querystring: { device?: string; key?: string } }>(
    '/browser-filter/uninstalled',
    async (request, reply) => {
      const { device, key } = request.query;
      let told = false;
      if (typeof device === 'string' && typeof key === 'string' && isUuid(device)) {
        if (isUninstallKey(deps.config, device.toLowerCase(), key)) {
          const row = await db
            .selectFrom('computer_users as cu')
            .innerJoin('children as c', 'c.id', 'cu.child_id')
            .select(['cu.id', 'cu.child_id', 'c.parent_id'])
            .where('cu.id', '=', device.toLowerCase())
            .executeTakeFirst();
          if (row) {
            const ctx: RequestContext & {
              computerUserId: string;
              childId: string;
              parentId: string;
            } = {
              db,
              config: deps.config,
              clock,
              services,
              log: request.log,
              requestId: request.id,
              ip: clientIp(deps.config, request.socket.remoteAddress, request.headers),
              dashboardUrl: deps.config.dashboardUrls[0]!,
              computerUserId: row.id,
              childId: row.child_id,
              parentId: row.parent_id,
            };
            await recordBrowserSecurityEvent(ctx, BROWSER_SECURITY_EVENT_NAMES.extensionRemoved);
            told = true;
          }
        }
      }
      return reply
        .code(told ? 200 : 404)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(uninstalledPage(told));
    },
  );

  // The extension as a zip, with this server's public address in its config.json, so the setup
  // page only asks for the connection code; and the same, signed, as a CRX with its update
  // manifest, for an install by policy (ExtensionInstallForcelist). Built by `npm run build`.
  const built = async (reply: FastifyReply) => {
    const folder = deps.config.browserFilterDist;
    if (!existsSync(path.join(folder, 'manifest.json'))) {
      await reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send(
          'The browser filter is not built on this server yet: run `npm run build`, then try again.',
        );
      return undefined;
    }
    return folder;
  };
  app.get(BROWSER_DOWNLOAD_PATH, async (_request, reply) => {
    const folder = await built(reply);
    if (!folder) return reply;
    const zip = await zipExtension(folder, { serverUrl: deps.config.publicUrl });
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .header('content-disposition', 'attachment; filename="keyward-chrome.zip"')
      .type('application/zip')
      .send(zip);
  });
  app.get(BROWSER_CRX_PATH, async (_request, reply) => {
    const folder = await built(reply);
    if (!folder) return reply;
    const zip = await zipExtension(folder, { serverUrl: deps.config.publicUrl });
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('application/x-chrome-extension')
      .send(packCrx3(zip, browserFilterSigningKey(deps.config)));
  });
  app.get(BROWSER_UPDATES_PATH, async (_request, reply) => {
    const folder = await built(reply);
    if (!folder) return reply;
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as {
      version: string;
    };
    const key = createPublicKey(browserFilterSigningKey(deps.config));
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('application/xml; charset=utf-8')
      .send(
        updateManifest(
          extensionIdOf(key),
          manifest.version,
          new URL(BROWSER_CRX_PATH, deps.config.publicUrl).toString(),
        ),
      );
  });
}

async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(folder, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await filesUnder(folder, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

/** The unpacked extension as a zip, its config.json replaced by `config`. */
export async function zipExtension(folder: string, config: { serverUrl: string }): Promise<Buffer> {
  const zip = new ZipFile();
  const fixedTime = new Date('2026-01-01T00:00:00Z');
  for (const file of await filesUnder(folder)) {
    if (file === 'config.json') continue;
    zip.addBuffer(await readFile(path.join(folder, file)), file, { mtime: fixedTime });
  }
  zip.addBuffer(Buffer.from(`${JSON.stringify(config, null, 2)}\n`), 'config.json', {
    mtime: fixedTime,
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function uninstalledPage(told: boolean): string {
  const message = told
    ? 'Keyward was removed from this browser, so it is no longer filtered. Your parent has been told.'
    : 'This link is not valid.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Keyward</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937">
<h1 style="color:#6d28d9">Keyward</h1><p>${message}</p></body></html>`;
}
