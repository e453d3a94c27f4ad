// Device-scale benchmark: npm run bench -- --devices N [--postgres URL] [--instances 2]
//   [--heartbeat S] [--hold S] [--pushes P]
//
// Starts the server (production mode, METRICS=1) on a fresh database with N Macs seeded (each its
// own token) plus a probe Mac, then a separate process (bench-devices-client.mjs) opens N push
// channels and heartbeats every S seconds (default 9: the 90 s timeline compressed 10 times).
// Reports connections held, server RSS, heartbeats handled per second (the server's
// keyward_device_messages_total against what the Macs sent) and the delay of a push to the probe
// Mac (SaveUser on its child, answer and push timed from the request) while all others are
// connected. With --instances 2 (PostgreSQL only) the Macs are spread over two servers and the
// probe's pushes cross instances through NOTIFY. `ulimit -n` is raised to the hard limit for
// the server(s); the client process needs one descriptor per Mac too (see README).
// Target on one instance: 10,000 Macs, RSS <= 1 GB, push p99 <= 200 ms, no errors.

import { fork } from 'node:child_process';
import { benchEnv, freshPostgres, pct, root, seed, startServer } from './bench-server.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')
    ? argv[i + 1]
    : fallback;
};
const count = Number(option('--devices', '1000'));
const postgresBase = option('--postgres', process.env.BENCH_DATABASE_URL);
const instances = Number(option('--instances', '1'));
const heartbeatMs = Number(option('--heartbeat', '9')) * 1000;
const holdSeconds = Number(option('--hold', '30'));
const pushes = Number(option('--pushes', '50'));
if (instances > 1 && !postgresBase) {
  console.error('Two instances need PostgreSQL (--postgres URL): SQLite is single-instance.');
  process.exit(2);
}

const pg = postgresBase ? await freshPostgres(postgresBase) : undefined;
const bench = benchEnv({ databaseUrl: pg?.url, env: { METRICS: '1' } });
const servers = [];
let client;
let ok = false;
try {
  console.log(`Seeding ${count} Macs on ${pg ? 'PostgreSQL' : 'SQLite'}…`);
  const seeded = await seed(bench.env, 'devices', String(count));
  for (let i = 0; i < instances; i++)
    servers.push(await startServer(bench.env, { name: `server ${i + 1}` }));
  const urls = servers.map((server) => server.url);
  console.log(`Server(s): ${urls.join(', ')}; RSS at start ${rss()}`);

  client = fork(new URL('./bench-devices-client.mjs', import.meta.url), [], {
    cwd: root,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (command, answer) =>
    new Promise((resolve, reject) => {
      const listener = (message) => {
        if (message.type === 'error') reject(new Error(message.message));
        if (message.type !== answer) return;
        client.off('message', listener);
        resolve(message);
      };
      client.on('message', listener);
      client.send(command);
    });

  const connected = await ask(
    { type: 'connect', urls, tokens: seeded.tokens, heartbeatMs, probe: seeded.probe },
    'connected',
  );
  console.log(
    `${connected.stats.connected} channels open in ${connected.seconds.toFixed(1)} s ` +
      `(${connected.stats.failedToConnect} failed); RSS ${rss()}`,
  );

  const before = await messagesHandled();
  const sentBefore = (await ask({ type: 'stats' }, 'stats')).stats.heartbeats;
  const rssSamples = [];
  const holdStart = Date.now();
  while (Date.now() - holdStart < holdSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 5000));
    rssSamples.push(servers.map((server) => server.rssMb()));
  }
  const elapsed = (Date.now() - holdStart) / 1000;
  const after = await messagesHandled();
  const held = await ask({ type: 'stats' }, 'stats');
  const sentRate = (held.stats.heartbeats - sentBefore) / elapsed;
  const handledRate = (after - before) / elapsed;
  const channels = await Promise.all(
    servers.map((server) => metric(server, 'keyward_device_channels_open')),
  );

  const pushed = await ask({ type: 'push', count: pushes }, 'pushed');
  const delays = pushed.delays.sort((a, b) => a - b);
  const p50 = pct(delays, 50);
  const p99 = pct(delays, 99);
  const peakRss = Math.max(...rssSamples.flat(), ...servers.map((server) => server.rssMb()));
  const stats = pushed.stats;

  console.log(
    `\n${count} Macs, ${instances} instance(s) on ${pg ? 'PostgreSQL' : 'SQLite'}, heartbeat every ${heartbeatMs / 1000} s:`,
  );
  console.log(`  channels held         ${channels.join(' + ')} (expected ${count + 1})`);
  console.log(`  server RSS            peak ${peakRss.toFixed(0)} MB per instance (${rss()} now)`);
  console.log(
    `  heartbeats            sent ${sentRate.toFixed(0)}/s, handled ${handledRate.toFixed(0)}/s over ${elapsed.toFixed(0)} s`,
  );
  console.log(
    `  push to one Mac       p50 ${p50?.toFixed(1)} ms, p99 ${p99?.toFixed(1)} ms over ${delays.length} pushes, ${pushed.lost} lost`,
  );
  console.log(
    `  errors                ${stats.failedToConnect} failed connections, ${stats.unexpectedCloses} unexpected closes ${JSON.stringify(stats.closeCodes)}` +
      (stats.errors.length ? `; ${stats.errors.slice(0, 3).join('; ')}` : ''),
  );
  const errors = stats.failedToConnect + stats.unexpectedCloses + pushed.lost;
  ok =
    channels.reduce((a, b) => a + b, 0) === count + 1 &&
    peakRss <= 1024 &&
    p99 !== undefined &&
    p99 <= 200 &&
    errors === 0 &&
    handledRate >= sentRate * 0.95;
  console.log(
    `\nTarget (all held, RSS <= 1 GB, push p99 <= 200 ms, no errors, heartbeats kept up): ${ok ? 'OK' : 'NOT MET'}`,
  );

  const stopStart = Date.now();
  await ask({ type: 'stop' }, 'stopped');
  await Promise.all(servers.map((server) => server.stop()));
  console.log(`(servers stopped in ${((Date.now() - stopStart) / 1000).toFixed(1)} s)`);
} finally {
  client?.kill();
  await Promise.all(servers.map((server) => server.stop()));
  bench.cleanup();
  await pg?.drop();
}
process.exitCode = ok ? 0 : 1;

function rss() {
  return servers.map((server) => `${server.rssMb().toFixed(0)} MB`).join(' + ');
}

async function metric(server, name) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

async function messagesHandled() {
  const values = await Promise.all(
    servers.map((server) => metric(server, 'keyward_device_messages_total')),
  );
  return values.reduce((a, b) => a + b, 0);
}
