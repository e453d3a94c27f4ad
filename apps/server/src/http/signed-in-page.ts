import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  PAGE_RENDER_ELEMENT_ID,
  type PageRender,
  RENDERED_FOR_ATTRIBUTE,
  RENDERED_META_NAME,
  SESSION_COOKIE,
  SESSION_COOKIE_PATH,
} from '@keyward/contract/page-render';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { PqlFailure } from '../pairql/errors.ts';
import { findSession } from './pairql.ts';
import type { Clock } from '../services/clock.ts';
import { RATE_LIMITS, type RateLimiter } from '../pairql/rate-limit.ts';

// Issue 30: the signed-in home page rendered on the server, with the parent's first reads, so that
// a phone shows the child's name from the first response instead of after the dashboard's code.
//
// - The dashboard keeps its token in the browser's storage and sends it as X-AdminToken; beside it,
//   POST /session-cookie sets an HttpOnly, SameSite=Strict cookie with the same token (and the
//   browser's time zone), read only here, to render GET pages. The API never reads it.
// - GET / with that cookie: the page's first reads are answered as the API answers them (the same
//   route, in process, with the request's address), then the dashboard's own renderer
//   (WEB_DIST/server/entry-server.mjs, built from apps/web/src/entry-server.tsx) renders the page
//   with them, in the parent's time zone, and the answers go with the HTML for the hydration.
// - Anything missing or failing (no cookie, an expired or revoked session, a read that fails, no
//   renderer in the build) answers index.html, as before: the page is then rendered by the browser.

type Renderer = {
  firstReadsFor(path: string): readonly string[];
  preparePage(path: string): Promise<void>;
  renderPage(path: string, session: { adminId: string; token: string }, render: PageRender): string;
};

const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;
const TIME_ZONE_MAX_LENGTH = 64;

/** A time zone Intl knows, else UTC. */
export function knownTimeZone(value: unknown): string {
  if (typeof value !== 'string' || value.length > TIME_ZONE_MAX_LENGTH) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The session cookie's token and time zone, from a Cookie header. */
export function readSessionCookie(
  header: string | undefined,
): { token: string; timeZone: string } | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    const [token, zone] = rest.join('=').split('.');
    if (!token) return undefined;
    let timeZone = 'UTC';
    try {
      timeZone = knownTimeZone(decodeURIComponent(zone ?? ''));
    } catch {
      // a malformed escape: UTC
    }
    return { token, timeZone };
  }
  return undefined;
}

function sessionCookie(config: Config, value: string, maxAge: number): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`;
}

/** A phone or a tablet, by its User-Agent: the layout with the slide-over sidebar. */
export function isMobileAgent(userAgent: string | undefined): boolean {
  return /Mobi|Android|iPhone|iPad|iPod/i.test(userAgent ?? '');
}

/** Runs `render` with the process's time zone set to `timeZone` (a synchronous render only). */
function inTimeZone<T>(timeZone: string, render: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    return render();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

/** index.html with the rendered page in #root and what it was rendered with beside it. */
export function withRenderedPage(
  indexHtml: string,
  pagePath: string,
  html: string,
  render: PageRender,
): string | undefined {
  const open = '<div id="root" class="h-full">';
  const start = indexHtml.indexOf(open);
  const end = start === -1 ? -1 : indexHtml.indexOf('</div>', start);
  const head = indexHtml.indexOf('<head>');
  if (start === -1 || end === -1 || head === -1 || head > start) return undefined;
  // `<` escaped: the data can never close its script element
  const data = JSON.stringify(render).replace(/</g, '\\u003c');
  const meta = `<meta name="${RENDERED_META_NAME}" content="${pagePath}">`;
  return (
    `${indexHtml.slice(0, head + 6)}${meta}${indexHtml.slice(head + 6, start)}` +
    `<div id="root" class="h-full" ${RENDERED_FOR_ATTRIBUTE}="${pagePath}">${html}</div>` +
    `<script type="application/json" id="${PAGE_RENDER_ELEMENT_ID}">${data}</script>` +
    indexHtml.slice(end + '</div>'.length)
  );
}

export type SignedInPages = {
  /** The HTML of the signed-in page the request asks for, or undefined: answer index.html. */
  render(
    request: FastifyRequest,
    reply: FastifyReply,
    indexHtml: string,
  ): Promise<string | undefined>;
};

export function registerSignedInPages(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock; rateLimit: RateLimiter },
): SignedInPages {
  const { db, config, clock, rateLimit } = deps;

  app.post(SESSION_COOKIE_PATH, async (request, reply) => {
    const token = request.headers['x-admintoken'];
    const session = await findSession(db, clock, token);
    if (!session || typeof token !== 'string') {
      const failure = new PqlFailure({
        id: '5e1c0a7b',
        type: 'loggedOut',
        debugMessage: 'No session for that token',
      });
      return reply.code(401).send(failure.body(request.id));
    }
    const body = (request.body ?? {}) as { timeZone?: unknown };
    const timeZone = knownTimeZone(body.timeZone);
    reply.header(
      'set-cookie',
      sessionCookie(
        config,
        `${token.trim()}.${encodeURIComponent(timeZone)}`,
        COOKIE_MAX_AGE_SECONDS,
      ),
    );
    return reply.code(204).send();
  });
  app.delete(SESSION_COOKIE_PATH, async (_request, reply) => {
    reply.header('set-cookie', sessionCookie(config, '', 0));
    return reply.code(204).send();
  });

  let loaded: { mtimeMs: number; renderer: Promise<Renderer> } | undefined;
  const prepared = new Set<string>();
  async function renderer(): Promise<Renderer | undefined> {
    const file = path.join(config.webDist, 'server', 'entry-server.mjs');
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    if (loaded?.mtimeMs !== mtimeMs) {
      prepared.clear();
      loaded = {
        mtimeMs,
        renderer: import(`${pathToFileURL(file).href}?build=${mtimeMs}`) as Promise<Renderer>,
      };
    }
    return loaded.renderer;
  }

  // Loading the renderer (a 2 MB module) and the home page's code costs about a second once: in
  // production it is done as the server starts, not on a parent's first visit.
  if (config.mode === 'production') {
    app.addHook('onReady', async () => {
      void renderer()
        .then(async (pages) => {
          await pages?.preparePage('/');
          prepared.add('/');
        })
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'signed-in page renderer not loaded'),
        );
    });
  }

  async function render(request: FastifyRequest, reply: FastifyReply, indexHtml: string) {
    const cookie = readSessionCookie(request.headers.cookie);
    if (!cookie || request.method !== 'GET') return undefined;
    const pagePath = request.url;
    const session = await findSession(db, clock, cookie.token);
    if (!session) {
      reply.header('set-cookie', sessionCookie(config, '', 0));
      return undefined;
    }
    const pages = await renderer().catch((error: unknown) => {
      request.log.warn({ err: error }, 'signed-in page renderer could not be loaded');
      return undefined;
    });
    const reads = pages?.firstReadsFor(pagePath) ?? [];
    if (!pages || reads.length === 0) return undefined;
    // a reload loop is served the file, not a render each time
    const { limit, windowSeconds } = RATE_LIMITS.signedInRendersPerSession;
    if (
      !(await rateLimit.tryConsume(`signedInRender:session:${session.id}`, limit, windowSeconds))
    ) {
      return undefined;
    }
    // the first reads as the API answers them, for this session, from this request's address
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-admintoken': cookie.token,
    };
    const forwarded = request.headers['x-forwarded-for'];
    if (typeof forwarded === 'string') headers['x-forwarded-for'] = forwarded;
    const answered = await Promise.all(
      reads.map((op) =>
        app.inject({
          method: 'POST',
          url: `/pairql/dashboard/${op}`,
          headers,
          remoteAddress: request.socket.remoteAddress,
        }),
      ),
    );
    if (answered.some((answer) => answer.statusCode !== 200)) return undefined;
    const answers: Record<string, unknown> = {};
    reads.forEach((op, i) => {
      answers[op] = answered[i]?.json();
    });
    if (!prepared.has(pagePath)) {
      await pages.preparePage(pagePath);
      prepared.add(pagePath);
    }
    // the id the dashboard keeps beside the token (the family's, for a co-parent too)
    const pageRender: PageRender = {
      adminId: session.parentId,
      now: clock.now().toISOString(),
      isMobile: isMobileAgent(request.headers['user-agent']),
      answers,
    };
    try {
      const html = inTimeZone(cookie.timeZone, () =>
        pages.renderPage(pagePath, { adminId: session.parentId, token: cookie.token }, pageRender),
      );
      return withRenderedPage(indexHtml, pagePath, html, pageRender);
    } catch (error) {
      request.log.warn({ err: error }, 'signed-in page could not be rendered');
      return undefined;
    }
  }

  return { render };
}
