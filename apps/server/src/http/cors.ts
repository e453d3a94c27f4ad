import type { FastifyInstance } from 'fastify';

// CORS only for the DASHBOARD_URL allow-list, only on /pairql/dashboard/* (wire-contract §1.6).
// The default same-origin setup needs none of it.

const DASHBOARD_PREFIX = '/pairql/dashboard/';

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
