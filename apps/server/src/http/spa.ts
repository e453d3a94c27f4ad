import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PqlFailure } from '../pairql/errors.ts';
import type { SignedInPages } from './signed-in-page.ts';

// Serves the built dashboard (WEB_DIST) with history fallback: any non-API GET that is not a file
// answers index.html. API paths never fall back.

const API_PREFIXES = [
  '/pairql/',
  '/macos-app/',
  '/browser-filter/',
  '/downloads/',
  '/push-actions/',
  '/weekly-report/',
  '/healthz',
  '/metrics',
  '/session-cookie',
];

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

const ENCODING_EXTENSIONS = { br: '.br', gzip: '.gz' } as const;
type Encoding = keyof typeof ENCODING_EXTENSIONS;

/** brotli when the browser takes it, else gzip, else none (q=0 refuses an encoding). */
export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

const compressedCopies = new Map<string, boolean>();
function hasCompressedCopy(filePath: string): boolean {
  let has = compressedCopies.get(filePath);
  if (has === undefined) {
    has = existsSync(`${filePath}.gz`) || existsSync(`${filePath}.br`);
    if (compressedCopies.size < 10_000) compressedCopies.set(filePath, has);
  }
  return has;
}

/**
 * The CSP sources of the inline scripts of an HTML page ('sha256-…' of each one's exact text): the
 * dashboard's index.html carries one small script of its own (apps/web/build/first-screen-preload.ts)
 * which the policy allows by its hash, never by 'unsafe-inline'.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes, text]) => !/\bsrc\s*=/i.test(attributes ?? '') && text)
    .map(
      ([, , text]) =>
        `'sha256-${createHash('sha256')
          .update(text ?? '')
          .digest('base64')}'`,
    );
}

/** `policy` with `sources` added to its script-src directive. */
export function allowScripts(policy: string, sources: readonly string[]): string {
  if (sources.length === 0) return policy;
  return policy
    .split(';')
    .map((directive) =>
      directive.trim().startsWith('script-src ') ? `${directive} ${sources.join(' ')}` : directive,
    )
    .join(';');
}

/** A value read from a file of the build, read again only when the file changes (a new build). */
function perBuild<T>(read: (text: string) => T, empty: T) {
  const cached = new Map<string, { mtimeMs: number; value: T }>();
  return async (file: string): Promise<T> => {
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return empty;
    const hit = cached.get(file);
    if (hit?.mtimeMs === mtimeMs) return hit.value;
    const value = read(await readFile(file, 'utf8'));
    cached.set(file, { mtimeMs, value });
    return value;
  };
}

/** The inline-script hashes of a page of the build. */
const pageScriptHashes = perBuild(inlineScriptHashes, []);

/**
 * Issue 30: the public pages the build rendered to HTML (apps/web/scripts/prerender.ts), by path:
 * `{ "/login": "login.html" }` in `prerendered/pages.json`.
 */
const prerenderedPages = perBuild((text) => {
  const pages = new Map<string, string>();
  try {
    for (const [pagePath, file] of Object.entries(JSON.parse(text) as Record<string, unknown>)) {
      if (typeof file === 'string' && /^[a-z0-9-]+\.html$/.test(file)) pages.set(pagePath, file);
    }
  } catch {
    // a broken manifest: every path gets index.html, as before there were prerendered pages
  }
  return pages;
}, new Map<string, string>());

/**
 * The HTML file that answers a page request: the page's prerendered HTML for a bare GET of one of
 * those paths (as a visitor without a session and without a query string sees it: the dashboard
 * hydrates it only then, and renders anew otherwise), else index.html.
 */
async function pageFile(webDist: string, url: string): Promise<string> {
  const indexFile = path.join(webDist, 'index.html');
  if (url.includes('?')) return indexFile;
  const prerendered = path.join(webDist, 'prerendered');
  const file = (await prerenderedPages(path.join(prerendered, 'pages.json'))).get(url);
  return file && existsSync(path.join(prerendered, file))
    ? path.join(prerendered, file)
    : indexFile;
}

export async function registerSpa(
  app: FastifyInstance,
  webDist: string,
  signedInPages?: SignedInPages,
): Promise<void> {
  if (existsSync(webDist)) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      cacheControl: false,
      // The build writes `.br` and `.gz` copies of every text asset (apps/web/build/precompress.ts);
      // the copy the browser accepts is sent with its Content-Encoding, nothing is compressed live.
      preCompressed: true,
      // the signed-in pages' renderer is the server's to run, not a file to download (issue 30)
      allowedPath: (pathname) => !pathname.startsWith('/server/'),
      setHeaders(res, filePath) {
        const relative = path.relative(webDist, filePath).split(path.sep);
        if (relative[0] === 'assets') {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          // index.html, sw.js (so a new service worker is found at once), the manifest, icons
          res.setHeader('cache-control', 'no-cache');
        }
        if (/\.(br|gz)$/.test(filePath) || hasCompressedCopy(filePath)) {
          res.setHeader('vary', 'Accept-Encoding');
        }
      },
    });
  }

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const indexFile = await pageFile(webDist, request.url);
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') {
      reply.header(
        'content-security-policy',
        allowScripts(policy, await pageScriptHashes(indexFile)),
      );
    }
    // issue 30: a signed-in page rendered here, with its first reads (http/signed-in-page.ts)
    if (signedInPages && request.url === '/' && existsSync(indexFile)) {
      const rendered = await signedInPages.render(
        request,
        reply,
        await readFile(indexFile, 'utf8'),
      );
      if (rendered) {
        return reply
          .code(200)
          .header('cache-control', 'private, no-store')
          .header('vary', 'Cookie, Accept-Encoding')
          .type('text/html; charset=utf-8')
          .send(rendered);
      }
    }
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding && existsSync(`${indexFile}${ENCODING_EXTENSIONS[encoding]}`)) {
      const compressed = await readFile(`${indexFile}${ENCODING_EXTENSIONS[encoding]}`);
      return reply
        .code(200)
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .header('content-encoding', encoding)
        .type('text/html; charset=utf-8')
        .send(compressed);
    }
    if (!existsSync(indexFile)) {
      return reply
        .code(200)
        .header('cache-control', 'no-cache')
        .type('text/html')
        .send(NOT_BUILT_PAGE);
    }
    const html = await readFile(indexFile, 'utf8');
    if (existsSync(`${indexFile}.gz`)) reply.header('vary', 'Accept-Encoding');
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  app.get('/', async (request, reply) => sendIndex(request, reply));
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
    return sendIndex(request, reply);
  });
}
