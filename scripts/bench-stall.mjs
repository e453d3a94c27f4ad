// Issue 31 (finding 2): can what one device sends slow another family? (npm run bench -- --stall
// [--seconds S] [--postgres URL])
//
// Starts the server as its own process in production mode with the production budgets
// (RATE_LIMIT_SCALE=1) on a fresh database, seeds two families (3 children, 3 Macs, 250 keys
// each), then measures family B's GetUsers (sequential calls, 50 ms apart, over HTTP: what its
// dashboard receives) while family A's Mac is quiet, then while it sends the worst typed lines a
// device may send, as fast as the server answers (each batch 40 lines × 10,000 characters, the
// most one device may send in a minute; over its budget the server answers 429). Prints p50/p95
// of each phase and their ratio. Target: the p50 under attack ≤ 2 × the quiet p50. Exits 1 over it.

import { Worker } from 'node:worker_threads';
import { benchEnv, freshPostgres, pct, seed, startServer } from './bench-server.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const seconds = Number(option('--seconds', '20'));
const postgresBase = option('--postgres', process.env.BENCH_DATABASE_URL);
const TARGET_RATIO = 2;
const swiftSeconds = (date) => date.getTime() / 1000 - 978_307_200;

const ATTACKS = [
  ['U+FDFA (18 characters in NFKD)', '\uFDFA'.repeat(10_000)],
  [
    '10,000 distinct CJK ideographs',
    Array.from({ length: 10_000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(''),
  ],
  ['zero-width space in every word', 'ki\u200Bll my\u00ADself '.repeat(625)],
];

const pg = postgresBase ? await freshPostgres(postgresBase) : undefined;
const bench = benchEnv({ databaseUrl: pg?.url });
let server;
let ok = true;
try {
  console.log(`Seeding two families on ${pg ? 'PostgreSQL' : 'SQLite'}…`);
  const victim = await seed(bench.env, 'family');
  const attacker = await seed(bench.env, 'family');
  server = await startServer({ ...bench.env, RATE_LIMIT_SCALE: '1' });
  console.log(
    `Server (NODE_ENV=production, RATE_LIMIT_SCALE=1) at ${server.url}, pid ${server.pid}`,
  );

  const post = (path, headers, body) =>
    fetch(`${server.url}/pairql/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', ...headers },
      body: JSON.stringify(body),
    });

  /** Family B's dashboard reading its children for `seconds`: latencies in ms, and non-200s. */
  async function probe() {
    const latencies = [];
    const statuses = new Map();
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const started = performance.now();
      const response = await post('dashboard/GetUsers', { 'x-admintoken': victim.adminToken });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200)
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    latencies.sort((a, b) => a - b);
    return { latencies, statuses };
  }

  /**
   * Family A's Mac sending `line` as fast as answered until `stop()`, from a worker thread (its
   * own event loop: building and sending batches does not delay family B's timings); one body
   * built once, of as many lines as fit in the server's 512 KB body limit (at most 40).
   */
  function attack(line) {
    const perBatch = Math.min(40, Math.floor(500_000 / (Buffer.byteLength(line) + 64)));
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      let running = true;
      parentPort.on('message', () => { running = false; });
      const answers = {};
      (async () => {
        while (running) {
          const status = await fetch(workerData.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-usertoken': workerData.token },
            body: workerData.body,
          }).then(async (r) => { await r.arrayBuffer(); return r.status; }, () => 'error');
          answers[status] = (answers[status] ?? 0) + 1;
        }
        parentPort.postMessage(answers);
      })();`,
      {
        eval: true,
        workerData: {
          url: `${server.url}/pairql/macos-app/CreateKeystrokeLines`,
          token: attacker.macs[0].token,
          body: JSON.stringify(
            Array.from({ length: perBatch }, () => ({
              appName: 'Notes',
              line,
              time: swiftSeconds(new Date()),
            })),
          ),
        },
      },
    );
    return {
      perBatch,
      stop: () =>
        new Promise((resolve) => {
          worker.once('message', (answers) => {
            void worker.terminate();
            resolve(new Map(Object.entries(answers)));
          });
          worker.postMessage('stop');
        }),
    };
  }

  const describe = ({ latencies }) =>
    `p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms (${latencies.length} calls)`;

  await probe(); // warm up
  const quiet = await probe();
  const quietP50 = pct(quiet.latencies, 50);
  console.log(`family B's GetUsers, family A quiet:   ${describe(quiet)}`);
  for (const [name, line] of ATTACKS) {
    const sender = attack(line);
    const loud = await probe();
    const answers = await sender.stop();
    const ratio = pct(loud.latencies, 50) / quietP50;
    const sent = [...answers].map(([status, n]) => `${n} × ${status}`).join(', ');
    const batch = `${sender.perBatch} lines a batch`;
    console.log(
      `family B's GetUsers, A's Mac sends ${name}: ${describe(loud)}, ${ratio.toFixed(2)}× quiet; A's batches (${batch}): ${sent}${loud.statuses.size ? `; B's errors: ${[...loud.statuses]}` : ''}`,
    );
    if (ratio > TARGET_RATIO || loud.statuses.size > 0) ok = false;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  console.log(
    ok
      ? `within target (p50 ≤ ${TARGET_RATIO}× quiet)`
      : `OVER TARGET (p50 ≤ ${TARGET_RATIO}× quiet)`,
  );
} finally {
  await server?.stop();
  bench.cleanup();
  await pg?.drop();
}
if (!ok) process.exitCode = 1;
