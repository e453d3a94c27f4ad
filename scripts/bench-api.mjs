// Read-path benchmark (npm run bench -- --api [--postgres URL] [--duration S] [--identity]).
//
// Starts the server in production mode on a fresh database, seeds a family (3 children, 3 Macs,
// 5 keychains × 50 keys, every keychain on every child), then runs autocannon with 10 connections
// against /healthz, GetUsers, GetUser, GetAdminKeychains, GetAdmin and the Mac's CheckIn_v2, one
// after the other, and prints req/s and p99 for each with its ratio to /healthz.
// Requests carry `Accept-Encoding: gzip, deflate, br` like a browser (--identity: none).
// Target: every operation >= 20% of /healthz's rate with p99 <= 20 ms.

import autocannon from 'autocannon';
import { benchEnv, freshPostgres, seed, startServer } from './bench-server.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const duration = Number(option('--duration', '10'));
const postgresBase = option('--postgres', process.env.BENCH_DATABASE_URL);
const connections = 10;
const TARGET_RATIO = 0.2;
const TARGET_P99_MS = 20;

const pg = postgresBase ? await freshPostgres(postgresBase) : undefined;
const bench = benchEnv({ databaseUrl: pg?.url });
let server;
let ok = true;
try {
  console.log(`Seeding the family on ${pg ? 'PostgreSQL' : 'SQLite'}…`);
  const family = await seed(bench.env, 'family');
  server = await startServer(bench.env);
  console.log(`Server (NODE_ENV=production) at ${server.url}, pid ${server.pid}`);

  const accept = argv.includes('--identity') ? {} : { 'accept-encoding': 'gzip, deflate, br' };
  const admin = {
    ...accept,
    'content-type': 'application/json',
    'x-admintoken': family.adminToken,
  };
  const mac = {
    ...accept,
    'content-type': 'application/json',
    'x-usertoken': family.macs[0].token,
  };
  const targets = [
    { name: '/healthz', path: '/healthz', method: 'GET', headers: accept },
    { name: 'GetUsers', path: '/pairql/dashboard/GetUsers', headers: admin },
    {
      name: 'GetUser',
      path: '/pairql/dashboard/GetUser',
      headers: admin,
      body: JSON.stringify(family.children[0]),
    },
    { name: 'GetAdminKeychains', path: '/pairql/dashboard/GetAdminKeychains', headers: admin },
    { name: 'GetAdmin', path: '/pairql/dashboard/GetAdmin', headers: admin },
    {
      name: 'CheckIn_v2',
      path: '/pairql/macos-app/CheckIn_v2',
      headers: mac,
      body: JSON.stringify({ appVersion: '2.4.0' }),
    },
  ];

  const rows = [];
  for (const target of targets) {
    const request = {
      url: `${server.url}${target.path}`,
      method: target.method ?? 'POST',
      headers: target.headers,
      body: target.body,
      connections,
    };
    await autocannon({ ...request, duration: 2 }); // warm-up
    const result = await autocannon({ ...request, duration });
    const failed = result.non2xx + result.errors + result.timeouts;
    rows.push({
      name: target.name,
      rps: result.requests.average,
      p99: result.latency.p99,
      p50: result.latency.p50,
      bytes: result.throughput.average / Math.max(1, result.requests.average),
      failed,
    });
    process.stdout.write(`  ${target.name} done\n`);
  }

  const healthz = rows[0].rps;
  console.log(
    `\n${pg ? 'PostgreSQL' : 'SQLite'}, ${connections} connections, ${duration} s each ` +
      `(server RSS ${server.rssMb().toFixed(0)} MB):`,
  );
  console.log('  operation            req/s   ratio   p50 ms   p99 ms  bytes/answer  errors');
  for (const row of rows) {
    const ratio = row.rps / healthz;
    const isTarget = row.name !== '/healthz';
    const meets =
      row.failed === 0 && (!isTarget || (ratio >= TARGET_RATIO && row.p99 <= TARGET_P99_MS));
    ok &&= meets;
    console.log(
      `  ${row.name.padEnd(18)} ${row.rps.toFixed(0).padStart(7)} ${`${(ratio * 100).toFixed(0)}%`.padStart(7)} ` +
        `${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${row.bytes.toFixed(0).padStart(13)} ` +
        `${String(row.failed).padStart(7)}${meets ? '' : '  MISSES TARGET'}`,
    );
  }
  console.log(
    `\nTarget: each operation >= ${TARGET_RATIO * 100}% of /healthz with p99 <= ${TARGET_P99_MS} ms: ${ok ? 'OK' : 'NOT MET'}`,
  );
} finally {
  await server?.stop();
  bench.cleanup();
  await pg?.drop();
}
process.exitCode = ok ? 0 : 1;
