// Soak: npm run bench -- --soak [--minutes M] [--connections C] [--postgres URL]
//
// The server (production mode) on a fresh database with the benchmark family (bench-seed.ts), and
// C (default 50) concurrent clients for M minutes (default 10) mixing dashboard reads (GetUsers,
// GetUser, GetAdminKeychains, GetAdmin), dashboard writes (SaveKey then DeleteEntity_v2 of that
// key, SaveUser renaming a child) and Mac requests (CheckIn_v2, Heartbeat). Prints, per minute,
// requests, errors, p50/p99 and the server's RSS; then the totals and RSS at start and end.

import { randomUUID } from 'node:crypto';
import { benchEnv, freshPostgres, pct, seed, startServer } from './bench-server.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')
    ? argv[i + 1]
    : fallback;
};
const minutes = Number(option('--minutes', '10'));
const connections = Number(option('--connections', '50'));
const postgresBase = option('--postgres', process.env.BENCH_DATABASE_URL);
const windowMs = Math.min(60_000, (minutes * 60_000) / 5);

const pg = postgresBase ? await freshPostgres(postgresBase) : undefined;
const bench = benchEnv({ databaseUrl: pg?.url });
let server;
let failed = true;
try {
  console.log(`Seeding the family on ${pg ? 'PostgreSQL' : 'SQLite'}…`);
  const family = await seed(bench.env, 'family');
  server = await startServer(bench.env);
  const rssStart = server.rssMb();
  console.log(
    `Server at ${server.url} (RSS ${rssStart.toFixed(0)} MB); ${connections} clients for ${minutes} min`,
  );

  const call = async (namespace, op, input, token) => {
    const headers = { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' };
    headers[namespace === 'dashboard' ? 'x-admintoken' : 'x-usertoken'] = token;
    const response = await fetch(`${server.url}/pairql/${namespace}/${op}`, {
      method: 'POST',
      headers,
      body: input === undefined ? undefined : JSON.stringify(input),
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`${op} ${response.status} ${body.slice(0, 200)}`);
    return body;
  };
  const admin = family.adminToken;
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const mix = [
    [20, 'GetUsers', () => call('dashboard', 'GetUsers', undefined, admin)],
    [15, 'GetUser', () => call('dashboard', 'GetUser', pick(family.children), admin)],
    [10, 'GetAdminKeychains', () => call('dashboard', 'GetAdminKeychains', undefined, admin)],
    [5, 'GetAdmin', () => call('dashboard', 'GetAdmin', undefined, admin)],
    [
      8,
      'SaveKey+DeleteEntity_v2',
      async () => {
        const id = randomUUID();
        await call(
          'dashboard',
          'SaveKey',
          {
            isNew: true,
            id,
            keychainId: pick(family.keychains),
            key: {
              type: 'anySubdomain',
              domain: `soak-${id.slice(0, 8)}.example.com`,
              scope: { type: 'webBrowsers' },
            },
          },
          admin,
        );
        await call('dashboard', 'DeleteEntity_v2', { id, type: 'key' }, admin);
      },
    ],
    [
      4,
      'SaveUser',
      () =>
        call(
          'dashboard',
          'SaveUser',
          {
            id: pick(family.children),
            isNew: false,
            name: `Child ${Math.floor(Math.random() * 100)}`,
            keyloggingEnabled: false,
            screenshotsEnabled: false,
            screenshotsResolution: 1000,
            screenshotsFrequency: 120,
            showSuspensionActivity: false,
            keychains: family.keychains.map((id) => ({ id })),
          },
          admin,
        ),
    ],
    [
      23,
      'CheckIn_v2',
      () => call('macos-app', 'CheckIn_v2', { appVersion: '2.4.0' }, pick(family.macs).token),
    ],
    [
      15,
      'Heartbeat',
      () => call('macos-app', 'Heartbeat', { heartbeat: {} }, pick(family.macs).token),
    ],
  ];
  const total = mix.reduce((sum, [weight]) => sum + weight, 0);
  const choose = () => {
    let r = Math.random() * total;
    for (const entry of mix) {
      r -= entry[0];
      if (r < 0) return entry;
    }
    return mix[0];
  };

  const windows = [];
  let current = { latencies: [], errors: 0, byOp: {} };
  const errorSamples = [];
  const end = Date.now() + minutes * 60_000;
  const ticker = setInterval(() => {
    const w = current;
    current = { latencies: [], errors: 0, byOp: {} };
    w.latencies.sort((a, b) => a - b);
    w.rss = server.rssMb();
    windows.push(w);
    console.log(
      `  ${String(windows.length).padStart(3)}: ${String(w.latencies.length).padStart(6)} requests ` +
        `(${(w.latencies.length / (windowMs / 1000)).toFixed(0)}/s), ${w.errors} errors, ` +
        `p50 ${pct(w.latencies, 50)?.toFixed(1)} ms, p99 ${pct(w.latencies, 99)?.toFixed(1)} ms, RSS ${w.rss.toFixed(0)} MB`,
    );
  }, windowMs);

  const worker = async () => {
    while (Date.now() < end) {
      const [, name, run] = choose();
      const started = performance.now();
      try {
        await run();
        current.latencies.push(performance.now() - started);
      } catch (error) {
        current.errors++;
        if (errorSamples.length < 5) errorSamples.push(`${name}: ${error.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  clearInterval(ticker);

  const all = windows.flatMap((w) => w.latencies).sort((a, b) => a - b);
  const errors = windows.reduce((sum, w) => sum + w.errors, 0) + current.errors;
  const rssEnd = server.rssMb();
  console.log(
    `\nSoak on ${pg ? 'PostgreSQL' : 'SQLite'}, ${connections} clients, ${minutes} min: ${all.length} requests, ` +
      `${errors} errors, p50 ${pct(all, 50)?.toFixed(1)} ms, p99 ${pct(all, 99)?.toFixed(1)} ms; ` +
      `RSS ${rssStart.toFixed(0)} MB at start, ${rssEnd.toFixed(0)} MB at the end`,
  );
  if (errorSamples.length) console.log(`First errors: ${errorSamples.join(' | ')}`);
  failed = errors > 0;
} finally {
  await server?.stop();
  bench.cleanup();
  await pg?.drop();
}
process.exitCode = failed ? 1 : 0;
