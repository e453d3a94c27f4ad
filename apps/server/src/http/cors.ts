import type { FastifyInstance } from 'fastify';

// CORS only for the DASHBOARD_URL allow-list, only on /pairql/dashboard/* (wire-contract §1.6),
// and (issue 31) the screenshot images loadable by the allow-list's pages. The default same-origin
// setup needs none of it.

const DASHBOARD_PREFIX = '/pairql/dashboard/';

/**
 * Issue 31: what a dashboard page loads from the API as a resource (not through fetch): the
 * screenshot images, whose URLs are on the API's own address (PUBLIC_URL). Helmet answers every
 * response `Cross-Origin-Resource-Policy: same-origin`, which blocked them on a dashboard served
 * from another allowed origin (net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin).
 */
const RESOURCE_PREFIXES = ['/screenshots/'];

/** The page's origin a resource request came from: its Origin, else its Referer's origin. */
function requestingOrigin(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const origin = headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  const referer = headers.referer;
  if (typeof referer !== 'string') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

export function registerDashboardCors(app: FastifyInstance, allowList: string[]): void {
  const allowedOrigin = (origin: string | undefined) =>
    origin !== undefined && allowList.includes(origin) ? origin : undefined;

  app.options('/pairql/dashboard/*', async (request, reply) => {
    const origin = allowedOrigin(request.headers.origin);
    if (origin) reply.header('access-control-allow-origin', origin);
    return reply
      .header('vary', 'Origin')
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type, X-AdminToken, X-DashboardUrl')
      .header('access-control-max-age', '600')
      .code(204)
      .send();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      RESOURCE_PREFIXES.some((prefix) => request.url.startsWith(prefix))
    ) {
      // issue 31: loadable by a page of every allowed dashboard origin, and of no other (a plain
      // <img>, as the reference dashboard's, sends no Origin; browsers send the page's origin as
      // Referer to another origin by default; a page that sends neither is refused: same-origin)
      const vary = reply.getHeader('vary');
      reply.header(
        'vary',
        vary === undefined ? 'Origin, Referer' : `${String(vary)}, Origin, Referer`,
      );
      if (allowedOrigin(requestingOrigin(request.headers)) !== undefined) {
        reply.header('cross-origin-resource-policy', 'cross-origin');
      }
      // Keyward's own dashboard asks for its images in CORS mode (crossorigin="anonymous"): the
      // browser then names the page's Origin whatever its referrer policy, and checks this answer
      const corsOrigin = allowedOrigin(request.headers.origin);
      if (corsOrigin) reply.header('access-control-allow-origin', corsOrigin);
    }
    if (request.method !== 'OPTIONS' && request.url.startsWith(DASHBOARD_PREFIX)) {
      const origin = allowedOrigin(request.headers.origin);
      // added to a Vary set before (a cached answer's accept-encoding), not in its place
      const vary = reply.getHeader('vary');
      reply.header('vary', vary === undefined ? 'Origin' : `${String(vary)}, Origin`);
      if (origin) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', 'Retry-After');
      }
    }
    return payload;
  });
}
