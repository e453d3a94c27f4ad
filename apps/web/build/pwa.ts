import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { keyholeIconPng } from './icons.ts';

// Issue 23: what makes the dashboard an installable app on a parent's phone, all written at build
// time next to index.html: the web app manifest, its icons (drawn by build/icons.ts), the offline
// page and the service worker (build/service-worker.js with this build's app shell filled in: the
// entry's hashed JavaScript and CSS, so a second start needs no network for them).

export const THEME_COLOUR = '#7c3aed';

export const MANIFEST = {
  name: 'Keyward',
  short_name: 'Keyward',
  description: "Your children's requests and activity, and the decisions on them.",
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: THEME_COLOUR,
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    {
      src: '/icons/icon-maskable-512.png',
      sizes: '512x512',
      type: 'image/png',
      purpose: 'maskable',
    },
  ],
};

export const OFFLINE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${THEME_COLOUR}"><title>Keyward – offline</title></head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;font:16px system-ui,sans-serif;color:#1f2937;background:#fff">
<main style="max-width:26rem;padding:2rem;text-align:center">
<img src="/icons/icon-192.png" width="64" height="64" alt="">
<h1 style="font-size:1.25rem;color:#6d28d9">You're offline</h1>
<p>Keyward needs the internet to show your children's latest requests and to send your decisions. Nothing you see here is out of date: it just can't load yet.</p>
<p>This page will reload by itself when you're back online.</p>
<p><a href="/" style="color:#6d28d9">Try again</a></p>
</main>
<script src="/offline.js"></script>
</body></html>
`;

// the CSP allows no inline script; the network may take a moment after the `online` event
const OFFLINE_SCRIPT =
  "addEventListener('online',function(){setTimeout(function(){location.reload()},1000)});\n";

type BundleItem = { type: string; fileName: string; isEntry?: boolean; imports?: string[] };

/** The entry chunk, what it imports statically, and the CSS: the app shell. */
export function shellFiles(bundle: Record<string, BundleItem>): string[] {
  const items = Object.values(bundle);
  const byName = new Map(items.map((item) => [item.fileName, item]));
  const seen = new Set<string>();
  const stack = items
    .filter((item) => item.type === 'chunk' && item.isEntry)
    .map((i) => i.fileName);
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...(byName.get(name)?.imports ?? []));
  }
  for (const item of items) {
    if (
      item.type === 'asset' &&
      item.fileName.startsWith('assets/') &&
      /\.css$/.test(item.fileName)
    ) {
      seen.add(item.fileName);
    }
  }
  return [...seen]
    .filter((name) => name.startsWith('assets/'))
    .sort()
    .map((name) => `/${name}`);
}

export function pwa(): Plugin {
  return {
    name: 'keyward-pwa',
    apply: 'build',
    generateBundle(_options, bundle) {
      const shell = shellFiles(bundle as unknown as Record<string, BundleItem>);
      const version = createHash('sha256').update(shell.join('\n')).digest('hex').slice(0, 12);
      const worker = readFileSync(path.join(import.meta.dirname, 'service-worker.js'), 'utf8')
        .replace('__VERSION__', version)
        .replace('__SHELL__', JSON.stringify(shell));
      const emit = (fileName: string, source: string | Uint8Array) =>
        this.emitFile({ type: 'asset', fileName, source });
      emit('sw.js', worker);
      emit('manifest.webmanifest', `${JSON.stringify(MANIFEST, null, 2)}\n`);
      emit('offline.html', OFFLINE_PAGE);
      emit('offline.js', OFFLINE_SCRIPT);
      emit('icons/icon-192.png', keyholeIconPng(192, 'rounded'));
      emit('icons/icon-512.png', keyholeIconPng(512, 'rounded'));
      emit('icons/icon-maskable-512.png', keyholeIconPng(512, 'maskable'));
      emit('icons/apple-touch-icon.png', keyholeIconPng(180, 'maskable'));
    },
  };
}
