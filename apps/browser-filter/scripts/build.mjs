#!/usr/bin/env node
// Builds Keyward for Chrome:
//   dist/unpacked/         the extension as Chrome loads it ("Load unpacked", or the e2e tests)
//   dist/keyward-chrome.zip  the same files zipped (the server serves its own copy of the folder,
//                          with config.json naming itself)
// Nothing is downloaded: the scripts are bundled by esbuild and the icons are drawn here.

import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { drawIcon, encodePng, ICON_SIZES } from './icons.mjs';
import { zip } from './zip.mjs';

const workspace = fileURLToPath(new URL('..', import.meta.url));
// KEYWARD_BROWSER_FILTER_DIST: build somewhere else (the e2e tests build their own copy).
const dist = process.env.KEYWARD_BROWSER_FILTER_DIST ?? join(workspace, 'dist');
const out = join(dist, 'unpacked');
const pkg = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'icons'), { recursive: true });

const common = {
  bundle: true,
  target: 'chrome121',
  legalComments: 'none',
  logLevel: 'warning',
  charset: 'utf8',
};
await build({
  ...common,
  entryPoints: ['background', 'setup', 'blocked'].map((name) =>
    join(workspace, 'src', `${name}.ts`),
  ),
  outdir: out,
  format: 'esm',
});
// Content scripts cannot be modules.
await build({
  ...common,
  entryPoints: [join(workspace, 'src/content.ts')],
  outdir: out,
  format: 'iife',
});

cpSync(join(workspace, 'static'), out, { recursive: true });
for (const size of ICON_SIZES) {
  writeFileSync(join(out, `icons/icon-${size}.png`), encodePng(size, size, drawIcon(size)));
}
const icons = Object.fromEntries(
  ICON_SIZES.map((size) => [String(size), `icons/icon-${size}.png`]),
);

const manifest = {
  manifest_version: 3,
  name: 'Keyward',
  description:
    "Keyward's internet filter for a child: websites open when a parent's keys unlock them.",
  version: pkg.version,
  minimum_chrome_version: '121',
  icons,
  action: { default_title: 'Keyward: ask for this page', default_icon: icons },
  background: { service_worker: 'background.js', type: 'module' },
  options_page: 'setup.html',
  permissions: [
    'declarativeNetRequest',
    'storage',
    'alarms',
    'tabs',
    'webNavigation',
    'webRequest',
    // issue 34: screen time counts only while the child is not idle (no permission warning)
    'idle',
  ],
  host_permissions: ['<all_urls>'],
  // Blocks everything from the moment of installation, before the service worker's first rules
  // (packages/domain browser-rules STATIC_BLOCK_RULES; a unit test keeps the two equal).
  declarative_net_request: {
    rule_resources: [
      { id: 'block_everything', enabled: true, path: 'rules/block-everything.json' },
    ],
  },
  incognito: 'spanning',
  content_scripts: [
    {
      matches: ['<all_urls>'],
      js: ['content.js'],
      all_frames: true,
      run_at: 'document_start',
    },
  ],
  web_accessible_resources: [
    {
      resources: ['blocked.html', 'blocked.js', 'pages.css', 'icons/*'],
      matches: ['<all_urls>'],
    },
  ],
};
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The server's download replaces this with its own address.
writeFileSync(join(out, 'config.json'), `${JSON.stringify({ serverUrl: null })}\n`);

function filesUnder(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}
const files = filesUnder(out).map((path) => ({
  name: relative(out, path).split('\\').join('/'),
  data: readFileSync(path),
}));
writeFileSync(join(dist, 'keyward-chrome.zip'), zip(files));
console.log(
  `Keyward for Chrome ${pkg.version}: ${files.length} files in ${relative(process.cwd(), out) || out}, zipped to dist/keyward-chrome.zip`,
);
