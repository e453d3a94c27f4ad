import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PqlFailure } from '../pairql/errors.ts';

// Serves the built dashboard (WEB_DIST) with history fallback: any non-API GET that is not a file
// answers index.html. API paths never fall back.

const API_PREFIXES = ['/pairql/', '/macos-app/', '/healthz'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  return API_PREFIXES.some(
    (prefix) => pathname === prefix.replace(/\/$/, '') || pathname.startsWith(prefix),
  );
}

const NOT_BUILT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Keyward</title></head>
<body style="font-family:system-ui,sans-serif;padding:2rem">
<h1>The dashboard is not built yet</h1>
<p>The server is running, but there is no built dashboard to serve. Run <code>npm run build</code> at the repository root, then reload this page.</p>
</body></html>`;

export async function registerSpa(app: FastifyInstance, webDist: string): Promise<void> {
  if (existsSync(webDist)) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const relative = path.relative(webDist, filePath).split(path.sep);
        if (relative[0] === 'assets') {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'no-cache');
        }
      },
    });
  }

  const indexFile = path.join(webDist, 'index.html');
  const sendIndex = async (reply: FastifyReply) => {
    if (!existsSync(indexFile)) {
      return reply
        .code(200)
        .header('cache-control', 'no-cache')
        .type('text/html')
        .send(NOT_BUILT_PAGE);
    }
    const html = await readFile(indexFile, 'utf8');
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  app.get('/', async (_request, reply) => sendIndex(reply));
  app.setNotFoundHandler(async (request, reply) => {
    // A missing hashed asset (a stale chunk after a deploy) must fail loudly, not come back as HTML.
    const isAsset = request.url.startsWith('/assets/');
    if (
      isAsset ||
      isApiPath(request.url) ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      const failure = new PqlFailure({
        id: '0f5a25c9',
        type: 'notFound',
        debugMessage: `No route for ${request.method} ${request.url.split('?')[0]}`,
      });
      return reply.code(404).type('application/json; charset=utf-8').send(failure.body(request.id));
    }
    return sendIndex(reply);
  });
}
