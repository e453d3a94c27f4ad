#!/usr/bin/env node
// Page-weight benchmark: how much JavaScript and CSS a browser downloads to show /login.
//
//   npm run bench               build the SPA, start the real server on it, load /login in
//                               Chromium and sum the bytes on the wire (bench-login-wire.mjs)
//   npm run bench -- --no-build measure the existing build (BENCH_WEB_DIST, default apps/web/dist)
//   npm run bench -- --manifest the older estimate from the vite manifest (gzip level 9 per file)
//   npm run bench -- --manifest --browser  …and compare its file list with what Chromium fetched
//   npm run bench -- --api             read-path req/s and p99 against /healthz (bench-api.mjs)
//   npm run bench -- --devices N       N simulated Macs on push channels (bench-devices.mjs)
//   npm run bench -- --soak            mixed load for 10 minutes (bench-soak.mjs, --minutes M)
//   npm run bench -- --signup-timing   Signup's answer time, pending vs new email (no page weight)
//   npm run bench -- --activity        activity review on a 5,000-item day (bench-activity.mjs)
//   npm run bench -- --browser-rules   the browser filter's rule compiler on 1,000 keys
//                                      (bench-browser-rules.mjs; median of 20, target <= 100 ms)
//   npm run bench -- --push            a child's suspension request → the push at a local push
//                                      service, 20 times (bench-push.mjs)
//   npm run bench -- --dns             Keyward DNS: policy compile time and memory, then DoT and
//                                      DoH q/s and p50/p99 beside Debian's unbound, at saturation
//                                      and at half unbound's most (bench-dns.ts; --pinned: servers
//                                      on core 0, the load on core 1; --rounds N)
//   npm run bench -- --alerts          alert matching: a batch of 100 typed lines against 5,000
//                                      words and phrases (bench-alerts.ts; --runs N)
//   npm run bench -- --stall           another family's GetUsers p50 while one Mac sends the worst
//                                      typed lines it may (bench-stall.mjs; --seconds S, --postgres URL)
//   npm run bench -- --inbox           GetInbox, DashboardWidgets and GetFamilyDevices with 40,000
//                                      pending requests (bench-inbox.ts; --runs N)
//   npm run bench -- --phone           /login and the signed-in home on a phone profile: time to
//                                      the first useful element, requests, bytes, request chain
//                                      (bench-phone.mjs; --no-build, --runs N, --json,
//                                      --reference DIR: side by side with another build)
//
// Each file is gzipped on its own (zlib level 9) and the sizes are summed (1 KB = 1024 bytes).
// Exits 1 when the JavaScript is over the target.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = process.env.BENCH_WEB_DIST ?? join(root, 'apps/web/dist');
const manifestPath = join(dist, '.vite/manifest.json');
const TARGET_JS_KB = 100;

const args = new Set(process.argv.slice(2));
if (args.has('--signup-timing')) {
  // A separate benchmark: does Signup's timing reveal pending accounts? (bench-signup-timing.mjs)
  await import('./bench-signup-timing.mjs');
  process.exit(process.exitCode ?? 0);
}
for (const [flag, module] of [
  ['--api', './bench-api.mjs'],
  ['--devices', './bench-devices.mjs'],
  ['--soak', './bench-soak.mjs'],
  ['--stall', './bench-stall.mjs'],
]) {
  if (args.has(flag)) {
    // Server benchmarks (Performance in the README); they start their own server.
    await import(module);
    process.exit(process.exitCode ?? 0);
  }
}
if (args.has('--browser-rules')) {
  await import('./bench-browser-rules.mjs');
  process.exit(process.exitCode ?? 0);
}
if (args.has('--activity')) {
  // A separate benchmark: feed and summaries timings on a heavy day (bench-activity.mjs)
  await import('./bench-activity.mjs');
  process.exit(process.exitCode ?? 0);
}
if (args.has('--push')) {
  await import('./bench-push.mjs');
  process.exit(0);
}
if (args.has('--inbox')) {
  // A separate benchmark: the polled reads with 40,000 pending requests (bench-inbox.ts, issue 31)
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts/bench-inbox.ts'), ...process.argv.slice(2)],
    { cwd: join(root, 'apps/server'), stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}
if (args.has('--dns')) {
  // Keyward DNS beside unbound, all on 127.0.0.1 (bench-dns.ts)
  const run = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      join(root, 'scripts/bench-dns.ts'),
      ...process.argv.slice(2),
    ],
    { cwd: join(root, 'apps/server'), stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}
if (args.has('--alerts')) {
  // A separate benchmark, no server: the alert matcher of packages/domain (bench-alerts.ts)
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts/bench-alerts.ts'), ...process.argv.slice(2)],
    { cwd: join(root, 'apps/server'), stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}
if (!args.has('--no-build')) {
  console.log('Building the SPA (npm run build -w apps/web)');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('Building the SPA failed.');
    process.exit(1);
  }
}
if (args.has('--phone')) {
  const { measurePhone } = await import('./bench-phone.mjs');
  const runsAt = process.argv.indexOf('--runs');
  await measurePhone({
    dist,
    runs: runsAt > 0 ? Number(process.argv[runsAt + 1]) : 5,
    json: args.has('--json'),
    reference: process.argv.includes('--reference')
      ? process.argv[process.argv.indexOf('--reference') + 1]
      : undefined,
  });
  process.exit(0);
}
if (!args.has('--manifest')) {
  const { measureLoginOnTheWire } = await import('./bench-login-wire.mjs');
  process.exit(await measureLoginOnTheWire({ dist, targetKb: TARGET_JS_KB, goalKb: 95 }));
}
if (!existsSync(manifestPath)) {
  console.error(
    `No vite manifest at ${manifestPath}: build.manifest must be on in vite.config.ts.`,
  );
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const files = loginFiles(manifest);
const js = files.filter((f) => f.endsWith('.js'));
const css = files.filter((f) => f.endsWith('.css'));

console.log('\nFiles a browser downloads to show /login:');
for (const file of files) console.log(`  ${file.padEnd(48)} ${kb(gzippedSize(file))} KB gzipped`);

const jsKb = sumKb(js);
const cssKb = sumKb(css);
let isOk = jsKb <= TARGET_JS_KB;

if (args.has('--browser')) {
  const fetched = await filesFetchedByBrowser('/login');
  const missed = fetched.filter((f) => !files.includes(f));
  console.log(`\nChromium fetched ${fetched.length} JS/CSS files for /login.`);
  if (missed.length) {
    console.log(`Not in the manifest estimate: ${missed.join(', ')}`);
    const browserJs = sumKb(fetched.filter((f) => f.endsWith('.js')));
    console.log(`Chromium's total: ${browserJs.toFixed(1)} KB gzipped JS`);
    isOk = isOk && browserJs <= TARGET_JS_KB;
  } else {
    console.log('It matches the manifest estimate.');
  }
}

console.log(
  `\n/login: ${jsKb.toFixed(1)} KB gzipped JS, ${cssKb.toFixed(1)} KB gzipped CSS ` +
    `(target <= ${TARGET_JS_KB} KB JS) ${isOk ? 'OK' : 'OVER TARGET'}`,
);
process.exit(isOk ? 0 : 1);

// ---------------------------------------------------------------------------------------------

/** index.html's entry with its static imports, plus the login page's lazy chunk and its imports. */
function loginFiles(manifest) {
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('The vite manifest has no entry chunk');
  // since issue 21 the login page is in the entry chunk (no chunk of its own in the manifest)
  const loginKey = Object.keys(manifest).find((key) =>
    /src\/features\/auth\/.*Login[^/]*\.[jt]sx?$/.test(key),
  );

  const seen = new Set();
  const out = [];
  const add = (file) => {
    if (!out.includes(file)) out.push(file);
  };
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    add(chunk.file);
    for (const file of chunk.css ?? []) add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  if (loginKey && loginKey !== entryKey) {
    if (manifest[loginKey].isDynamicEntry) console.log(`Login route chunk: ${loginKey}`);
    visit(loginKey);
  } else if (!loginKey) {
    console.log('No lazy chunk under src/features/auth/ found: /login is in the entry chunk.');
  }
  return out.filter((file) => /\.(js|css)$/.test(file));
}

function gzippedSize(file) {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
}

function kb(bytes) {
  return (bytes / 1024).toFixed(1);
}

function sumKb(list) {
  return list.reduce((sum, file) => sum + gzippedSize(file), 0) / 1024;
}

/** Serves dist like the server does (SPA fallback), loads the page in Chromium, lists JS/CSS. */
async function filesFetchedByBrowser(path) {
  const { chromium } = await import('@playwright/test');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const candidate = normalize(join(dist, decodeURIComponent(url.pathname)));
    const isFile =
      candidate.startsWith(dist) && existsSync(candidate) && statSync(candidate).isFile();
    const file = isFile ? candidate : join(dist, 'index.html');
    const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };
    res.setHeader('content-type', types[extname(file)] ?? 'application/octet-stream');
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    const fetched = [];
    page.on('response', (response) => {
      const pathname = new URL(response.url()).pathname;
      if (/\.(js|css)$/.test(pathname)) fetched.push(pathname.replace(/^\//, ''));
    });
    // /login may call the API; it is not running here, which does not change what is downloaded.
    await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'networkidle' });
    return [...new Set(fetched)];
  } finally {
    await browser.close();
    server.close();
  }
}
