import path from 'node:path';
import type { Plugin } from 'vite';

// Issue 21: the signed-in shell's chunks (react-query, the layout, the home page: the `app` group
// of build/chunks.ts) start downloading with the HTML, not after the entry has arrived and run.
// index.html is the same for every path, so a tiny script inlined in its head (no file to fetch:
// as a file it shared the link with the entry and ran half a second late on a phone; the server
// allows exactly this script by its hash in the CSP, http/spa.ts) adds their
// <link rel="modulepreload"> when the browser holds
// a session (then the visit is, or soon becomes, a signed-in page), and on the home page it sends
// the page's first reads too. /login and the other public pages of a visitor without a session
// download nothing more. The entry does the rest (app/first-screen.ts: the page's own chunk and
// first reads, taking over those already sent).

export type FirstReads = Record<string, readonly string[]>;

/**
 * The meta element the server puts in the head of a page it rendered with its first reads
 * (RENDERED_META_NAME of @keyward/contract/page-render, which vite's config cannot import;
 * test/built-html.test.ts checks they agree).
 */
export const RENDERED_META = 'keyward-rendered';

/**
 * The script's source: `files` are the chunks to preload, relative to the site's root;
 * `firstReads` the input-less operations to send at once on a path (exactly), with the session's
 * token, left in `window[readsGlobal]` for the entry (src/lib/api/early-fetch.ts).
 */
export function preloadScript({
  files,
  sessionKey,
  firstReads,
  readsGlobal,
}: {
  files: readonly string[];
  sessionKey: string;
  firstReads: FirstReads;
  readsGlobal: string;
}): string {
  // issue 30: a page the server rendered with its first reads needs them no more
  const renderedMeta = RENDERED_META;
  const json = JSON.stringify;
  return `(function(){try{var k=${json(sessionKey)},p=location.pathname,t=localStorage.getItem(k)||sessionStorage.getItem(k);if(!t||p.indexOf('/logout')===0)return;var r=${json(firstReads)}[p];if(r&&!document.querySelector('meta[name="${renderedMeta}"]')){var a={};r.forEach(function(o){a[o]=fetch('/pairql/dashboard/'+o,{method:'POST',headers:{'Content-Type':'application/json','X-AdminToken':t}})});window[${json(readsGlobal)}]={token:t,startedAt:Date.now(),answers:a}}${json(files)}.forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href='/'+f;document.head.appendChild(l)})}catch(e){}})();\n`;
}

type BundleChunk = {
  type: 'chunk';
  fileName: string;
  imports: string[];
  moduleIds: string[];
  isEntry: boolean;
};

/** The files of the chunks holding `modules` and what they import, minus the entry's own files. */
export function shellFiles(
  bundle: Record<string, { type: string }>,
  modules: readonly string[],
): string[] {
  const chunks = Object.values(bundle).filter((item): item is BundleChunk => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (roots: BundleChunk[]) => {
    const seen = new Set<string>();
    const stack = roots.map((chunk) => chunk.fileName);
    while (stack.length > 0) {
      const name = stack.pop() as string;
      if (seen.has(name)) continue;
      seen.add(name);
      stack.push(...(byName.get(name)?.imports ?? []));
    }
    return seen;
  };
  const entryFiles = closure(chunks.filter((chunk) => chunk.isEntry));
  const shell = closure(
    chunks.filter((chunk) => chunk.moduleIds.some((id) => modules.includes(id))),
  );
  return [...shell].filter((file) => !entryFiles.has(file)).sort();
}

export function firstScreenPreload({
  modules,
  sessionKey,
  firstReads,
  readsGlobal,
}: {
  /** Absolute ids of the signed-in shell's modules (their chunks are preloaded). */
  modules: readonly string[];
  /** The storage key of the session token (lib/session.ts). */
  sessionKey: string;
  /** Per path, the reads its first screen needs (the same as app/routes.tsx's firstReads). */
  firstReads: FirstReads;
  /** HTML_READS_GLOBAL of lib/api/early-fetch.ts. */
  readsGlobal: string;
}): Plugin {
  let source: string | undefined;
  let base = '/';
  return {
    name: 'keyward-first-screen-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const files = shellFiles(bundle, modules);
      if (files.length === 0) return;
      source = preloadScript({
        files: files.map((file) => path.posix.join(base, file).replace(/^\//, '')),
        sessionKey,
        firstReads,
        readsGlobal,
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!source) return html;
        // right after <meta charset>: before any stylesheet (a script after one would wait for it)
        // and before the entry's own tags, so it runs as soon as the head arrives
        const charset = /<meta charset="[^"]*"\s*\/?>/i;
        if (!charset.test(html))
          throw new Error('index.html needs a <meta charset> first in <head>');
        return html.replace(charset, (tag) => `${tag}\n    <script>${source?.trimEnd()}</script>`);
      },
    },
  };
}
