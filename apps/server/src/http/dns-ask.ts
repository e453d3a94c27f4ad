import { DNS_REQUEST_APP } from '@keyward/domain/unlock-request';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { BlockedNames } from '../dns/blocked-names.ts';
import { DEVICE_ID } from '../dns/device-policies.ts';
import type { RequestContext, Services } from '../pairql/context.ts';
import { PqlFailure } from '../pairql/errors.ts';
import { storeUnlockRequests } from '../requests/store-unlock-requests.ts';
import { askForSuspension } from '../requests/suspension-request.ts';
import type { Clock } from '../services/clock.ts';
import { clientIp } from '../services/client-ip.ts';

// Issue 33: the child-facing page of a Keyward DNS device, /ask/<device id> (the server's own name
// always resolves, so it opens even on a filtered phone). It lists the names blocked on that device
// in the last 24 hours with *Ask for this*, and offers *Ask to turn the filter off for…*: the same
// unlock and suspension requests as a Mac's (requests/), so the parent is notified and decides them
// in the same inbox. No session: the device id is what the device itself uses to reach Keyward.
// Plain HTML forms (no script), readable on a phone.

const SUSPENSIONS = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: 'an hour' },
];

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:0 auto;padding:1rem;color:#0f172a}
h1{font-size:1.4rem}li{margin:.5rem 0;display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
code{word-break:break-all}button{min-height:44px;padding:0 1rem;border-radius:.5rem;border:1px solid #7c3aed;background:#f5f3ff;color:#5b21b6;font:inherit}
.note{background:#f5f3ff;padding:.75rem;border-radius:.5rem}</style></head>
<body>${body}</body></html>`;
}

interface Device {
  id: string;
  childId: string;
  parentId: string;
  childName: string;
  deviceName: string;
}

export async function registerDnsAsk(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock; services: Services; blockedNames: BlockedNames },
) {
  const { db, config, clock, services, blockedNames } = deps;

  async function deviceOf(id: string): Promise<Device | undefined> {
    const deviceId = id.toLowerCase();
    if (!DEVICE_ID.test(deviceId)) return undefined;
    const row = await db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .innerJoin('children as ch', 'ch.id', 'cu.child_id')
      .select(['cu.id', 'cu.child_id', 'ch.parent_id', 'ch.name', 'cu.full_username'])
      .where('cu.id', '=', deviceId)
      .where('c.kind', '=', 'dns')
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          childId: row.child_id,
          parentId: row.parent_id,
          childName: row.name,
          deviceName: row.full_username,
        }
      : undefined;
  }

  const contextOf = (request: FastifyRequest): RequestContext => ({
    db,
    config,
    clock,
    services,
    log: request.log,
    requestId: request.id,
    ip: clientIp(config, request.socket.remoteAddress, request.headers),
    dashboardUrl: config.dashboardUrls[0]!,
  });

  const html = (reply: FastifyReply, status: number, text: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(text);

  const notFound = (reply: FastifyReply) =>
    html(
      reply,
      404,
      page(
        'Not found',
        '<h1>This device is not connected to Keyward</h1><p>Ask your parent to connect it again.</p>',
      ),
    );

  async function render(reply: FastifyReply, device: Device, message?: string, status = 200) {
    const names = await blockedNames.list(device.id, clock.now());
    const base = `/ask/${device.id}`;
    const list =
      names.length === 0
        ? '<p>Nothing was blocked on this device in the last 24 hours.</p>'
        : `<ul>${names
            .map(
              (entry) => `<li><code>${escapeHtml(entry.name)}</code>
<form method="post" action="${base}/unlock"><input type="hidden" name="name" value="${escapeHtml(entry.name)}"><button type="submit">Ask for this</button></form></li>`,
            )
            .join('')}</ul>`;
    const suspend = SUSPENSIONS.map(
      (option) =>
        `<form method="post" action="${base}/suspend"><input type="hidden" name="minutes" value="${option.minutes}"><button type="submit">${option.label}</button></form>`,
    ).join('');
    return html(
      reply,
      status,
      page(
        `Ask ${config.appName}`,
        `<h1>Blocked on ${escapeHtml(device.deviceName)}</h1>
${message ? `<p class="note" role="status">${escapeHtml(message)}</p>` : ''}
<p>Sites ${escapeHtml(device.childName)}'s device could not open recently. Ask your parent for one, and they can unlock it.</p>
${list}
<h2>Ask to turn the filter off for…</h2><div style="display:flex;gap:.5rem;flex-wrap:wrap">${suspend}</div>`,
      ),
    );
  }

  /** A refusal the child can read (a flood budget, a request that cannot be made), or undefined. */
  const refused = (error: unknown) =>
    error instanceof PqlFailure && error.statusCode < 500
      ? {
          message: error.details.userMessage ?? 'That did not work. Try again in a minute.',
          status: error.statusCode,
        }
      : undefined;

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.get<{ Params: { deviceId: string } }>('/ask/:deviceId', async (request, reply) => {
      const device = await deviceOf(request.params.deviceId);
      return device ? render(reply, device) : notFound(reply);
    });

    scope.post<{ Params: { deviceId: string }; Body: { name?: unknown } }>(
      '/ask/:deviceId/unlock',
      async (request, reply) => {
        const device = await deviceOf(request.params.deviceId);
        if (!device) return notFound(reply);
        const name =
          typeof request.body?.name === 'string' ? request.body.name.trim().toLowerCase() : '';
        if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(name) || name.length > 253) {
          return render(reply, device, 'That is not a website name.', 400);
        }
        try {
          await storeUnlockRequests(
            contextOf(request),
            { computerUserId: device.id, childId: device.childId, parentId: device.parentId },
            [{ app_bundle_id: DNS_REQUEST_APP, url: null, hostname: name, ip_address: null }],
            null,
          );
        } catch (error) {
          const refusal = refused(error);
          if (!refusal) throw error;
          return render(reply, device, refusal.message, refusal.status);
        }
        return render(reply, device, `Asked for ${name}. Your parent will decide.`);
      },
    );

    scope.post<{ Params: { deviceId: string }; Body: { minutes?: unknown } }>(
      '/ask/:deviceId/suspend',
      async (request, reply) => {
        const device = await deviceOf(request.params.deviceId);
        if (!device) return notFound(reply);
        const minutes = Number(request.body?.minutes);
        const option = SUSPENSIONS.find((entry) => entry.minutes === minutes);
        if (!option) return render(reply, device, 'Choose how long.', 400);
        try {
          await askForSuspension(
            contextOf(request),
            {
              kind: 'mac',
              deviceId: device.id,
              childId: device.childId,
              parentId: device.parentId,
            },
            { duration: option.minutes * 60 },
          );
        } catch (error) {
          const refusal = refused(error);
          if (!refusal) throw error;
          return render(reply, device, refusal.message, refusal.status);
        }
        return render(
          reply,
          device,
          `Asked to turn the filter off for ${option.label}. Your parent will decide.`,
        );
      },
    );
  });
}
