#!/usr/bin/env node
// Activity review on a heavy day (issue 8):
//
//   npm run bench -- --activity [--runs 15] [--no-browser]
//
// Starts the real server (fresh SQLite database), signs a parent up, connects one child's Mac and
// seeds, through the device API, a 5,000-item day (2,500 screenshots uploaded as real JPEGs through
// the signed URLs, 2,500 typed lines in 20 apps) plus lighter days for the rest of the two weeks.
// Then, from a client, the median of several runs of
//   - UserActivityFeed for that day, and ChildActivitySummaries (14 days), target <= 100 ms each;
//   - the JSON size of the day's feed (and gzipped);
// and, when the dashboard is built (WEB_DIST, default apps/web/dist) and not --no-browser, the
// Chromium part (scripts/bench-activity-browser.mjs): first items painted, longest frame while
// scrolling to the end. Exits 1 when an API median is over its target.

import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = process.env.KEYWARD_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 15;
const WARMUP = 3;
const TARGET_MS = 100;
const SCREENSHOTS = 2500;
const LINES = 2500;
const OTHER_DAYS_ITEMS = 100;
const APPS = [
  'Safari',
  'Google Chrome',
  'Messages',
  'Notes',
  'Pages',
  'Keynote',
  'Numbers',
  'Mail',
  'Minecraft',
  'Discord',
  'Roblox',
  'Zoom',
  'Spotify',
  'Preview',
  'TextEdit',
  'Terminal',
  'Xcode',
  'Scratch',
  'Microsoft Word',
  'FaceTime',
];
const WORDS =
  'the quick brown fox jumps over a lazy dog while homework waits for later tonight'.split(' ');

const webDist = process.env.WEB_DIST ?? join(root, 'apps/web/dist');
const withBrowser = !argv.includes('--no-browser');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'keyward-bench-activity-'));
const server = spawn(join(root, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SCALE: '100000',
    WEB_DIST: webDist,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitForHealth();
  const { adminId, token } = await signUpParent();
  const childId = randomUUID();
  await call('dashboard/SaveUser', token, {
    id: childId,
    isNew: true,
    name: 'Heavy Day',
    keyloggingEnabled: true,
    screenshotsEnabled: true,
    screenshotsResolution: 1000,
    screenshotsFrequency: 30,
    showSuspensionActivity: true,
    keychains: [],
  });
  const { code } = await call('dashboard/CreatePendingAppConnection', token, { userId: childId });
  const mac = await call('macos-app/ConnectUser', undefined, {
    verificationCode: code,
    appVersion: '2.6.0',
    modelIdentifier: 'Mac14,2',
    username: 'heavy',
    fullUsername: 'Heavy Day',
    numericId: 501,
    serialNumber: `BENCH${randomBytes(4).toString('hex').toUpperCase()}`,
    osVersion: '14.5.0',
    isAdmin: false,
  });

  // the heavy day is yesterday, in this process's time zone (the browser's too)
  const day = new Date();
  day.setDate(day.getDate() - 1);
  day.setHours(0, 0, 0, 0);
  const dayEnd = new Date(day);
  dayEnd.setHours(23, 59, 59, 999);
  const seedStarted = performance.now();
  await seedHeavyDay(mac.token, day);
  await seedOtherDays(mac.token, day);
  console.log(
    `Seeded a ${SCREENSHOTS + LINES}-item day (${SCREENSHOTS} screenshots, ${LINES} typed lines in ${APPS.length} apps) ` +
      `and ${OTHER_DAYS_ITEMS} items on each of 13 other days in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );

  const range = { start: day.toISOString(), end: dayEnd.toISOString() };
  const feed = await timed(() =>
    call('dashboard/UserActivityFeed', token, { userId: childId, range }, true),
  );
  const summaries = await timed(() =>
    call(
      'dashboard/ChildActivitySummaries',
      token,
      { childId, jsTimezoneOffsetMinutes: new Date().getTimezoneOffset() },
      true,
    ),
  );
  const feedJson = feed.last.text;
  const feedItems = JSON.parse(feedJson).items.length;
  const days = JSON.parse(summaries.last.text).days.length;
  const feedOk = feed.median <= TARGET_MS;
  const summariesOk = summaries.median <= TARGET_MS;
  console.log(
    `UserActivityFeed (one ${SCREENSHOTS + LINES}-item day, ${feedItems} entries after coalescing), median of ${RUNS}: ` +
      `${feed.median.toFixed(1)} ms (target <= ${TARGET_MS} ms) ${feedOk ? 'OK' : 'OVER'}${cpuNote(feed)}`,
  );
  console.log(
    `ChildActivitySummaries (14 days, ${days} days listed), median of ${RUNS}: ` +
      `${summaries.median.toFixed(1)} ms (target <= ${TARGET_MS} ms) ${summariesOk ? 'OK' : 'OVER'}${cpuNote(summaries)}`,
  );
  console.log(
    `Day feed JSON: ${(Buffer.byteLength(feedJson) / 1024).toFixed(0)} KB ` +
      `(${(gzipSync(feedJson).length / 1024).toFixed(0)} KB gzipped)`,
  );
  process.exitCode = feedOk && summariesOk ? 0 : 1;

  const browserPart = join(root, 'scripts/bench-activity-browser.mjs');
  if (!withBrowser) {
    console.log('Chromium part skipped (--no-browser)');
  } else if (!existsSync(join(webDist, 'index.html')) || !existsSync(browserPart)) {
    console.log(`Chromium part skipped: no built dashboard at ${webDist} (npm run build first)`);
  } else {
    const { measureActivityPage, formatActivityPageFigures } = await import(browserPart);
    const figures = await measureActivityPage({
      baseUrl: base,
      adminToken: token,
      adminId,
      childId,
      day,
    });
    console.log(formatActivityPageFigures(figures));
  }
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

async function seedHeavyDay(macToken, day) {
  const images = readdirSync(join(root, 'apps/server/src/activity/demo-screenshots'))
    .filter((file) => file.endsWith('.jpg'))
    .map((file) => readFileSync(join(root, 'apps/server/src/activity/demo-screenshots', file)));
  const dayMs = 24 * 60 * 60 * 1000;
  const spacing = dayMs / SCREENSHOTS;
  // screenshots every ~35 s all day; eight uploads at a time
  let next = 0;
  const worker = async () => {
    while (next < SCREENSHOTS) {
      const i = next++;
      const at = new Date(day.getTime() + Math.round((i + 0.5) * spacing));
      const { uploadUrl } = await call('macos-app/CreateSignedScreenshotUpload', macToken, {
        width: 480,
        height: 300,
        filterSuspended: i % 50 < 3,
        createdAt: swiftSeconds(at),
      });
      const put = await fetch(uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'image/jpeg' },
        body: images[i % images.length],
      });
      if (!put.ok) throw new Error(`screenshot upload answered ${put.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));

  const lines = Array.from({ length: LINES }, (_, i) => ({
    appName: APPS[Math.floor(i / 2) % APPS.length],
    line: Array.from({ length: 4 + (i % 9) }, (_, w) => WORDS[(i + w * 7) % WORDS.length]).join(
      ' ',
    ),
    filterSuspended: i % 50 < 3,
    time: swiftSeconds(new Date(day.getTime() + Math.round((i + 0.25) * (dayMs / LINES)))),
  }));
  for (let offset = 0; offset < lines.length; offset += 1000) {
    await call('macos-app/CreateKeystrokeLines', macToken, lines.slice(offset, offset + 1000));
  }
}

async function seedOtherDays(macToken, heavyDay) {
  // today (up to now) and the twelve days before the heavy day: 13 more days of the two weeks
  for (const shift of [1, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12]) {
    const day = new Date(heavyDay);
    day.setDate(day.getDate() + shift);
    const lines = Array.from({ length: OTHER_DAYS_ITEMS }, (_, i) => ({
      appName: APPS[i % APPS.length],
      line: `line ${i} of ${day.toDateString()}`,
      time: swiftSeconds(new Date(day.getTime() + i * 60_000)),
    })).filter((line) => line.time < swiftSeconds(new Date()));
    if (lines.length > 0) await call('macos-app/CreateKeystrokeLines', macToken, lines);
  }
}

/** A Date as the Mac app's JSONEncoder sends it: seconds since 2001-01-01. */
function swiftSeconds(date) {
  return date.getTime() / 1000 - 978_307_200;
}

async function timed(request) {
  const times = [];
  let last;
  let cpuBefore;
  for (let i = 0; i < RUNS + WARMUP; i++) {
    if (i === WARMUP) cpuBefore = serverCpuMs();
    const started = performance.now();
    last = await request();
    const ms = performance.now() - started;
    if (i >= WARMUP) times.push(ms);
  }
  const cpuAfter = serverCpuMs();
  const cpuPerCall =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / RUNS;
  return { median: median(times), last, cpuPerCall };
}

/**
 * CPU time (user + system) of the server process and its children, from /proc (Linux): unlike the
 * wall-clock medians it does not grow when other work shares the machine. undefined elsewhere.
 */
function serverCpuMs() {
  const ticksToMs = 10; // USER_HZ is 100 on Linux
  const of = (pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const own = (Number(fields[11]) + Number(fields[12])) * ticksToMs;
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      return own + children.reduce((sum, child) => sum + of(child), 0);
    } catch {
      return 0;
    }
  };
  return existsSync(`/proc/${server.pid}/stat`) ? of(server.pid) : undefined;
}

async function call(path, token, input, raw = false) {
  // compressed answers, like a browser gets them
  const headers = { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' };
  if (token) headers[path.startsWith('dashboard/') ? 'x-admintoken' : 'x-usertoken'] = token;
  const response = await fetch(`${base}/pairql/${path}`, {
    method: 'POST',
    headers,
    body: input === undefined ? undefined : JSON.stringify(input),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text}`);
  return raw ? { text } : JSON.parse(text);
}

/** Signup, then the verification link from the outbox (emails are not sent without SMTP_URL). */
async function signUpParent() {
  const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
  await call('dashboard/Signup', undefined, { email, password: 'a good password' });
  const outbox = join(dataDir, 'outbox');
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = existsSync(outbox) ? readdirSync(outbox) : [];
    for (const file of files) {
      const text = readFileSync(join(outbox, file), 'utf8').replace(/=\r?\n/g, '');
      const token = text.match(/verify-signup-email\/([0-9a-f-]{36})/)?.[1];
      if (token) {
        const login = await call('dashboard/VerifySignupEmail', undefined, { token });
        return { adminId: login.adminId, token: login.token };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('No verification email in the outbox');
}

function cpuNote(result) {
  return result.cpuPerCall === undefined
    ? ''
    : `; server CPU ${result.cpuPerCall.toFixed(0)} ms a call, load average ${loadavg()[0].toFixed(1)}`;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function waitForHealth() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error('The server exited during start-up');
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The server did not start within 60 s');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
}
