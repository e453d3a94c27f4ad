// From a child's request to the parent's phone (issue 23): `npm run bench -- --push`.
//
// The real server (its own process, fresh SQLite database) and a local push service on 127.0.0.1
// (an HTTP server that notes when each push arrives, as a browser vendor's would receive it). A
// parent subscribes "This device" with a real P-256 key pair through SavePushSubscription; then,
// 20 times in a row, a child's Mac asks for a suspension (CreateSuspendFilterRequest_v2 on the
// device API) and the bench times, as a client sees it, from sending the request to the push
// arriving at the push service. The parent rejects each request before the next, so every one is
// its own notification.
//
// Notifications of a child are grouped by whole windows of NOTIFICATION_GROUP_SECONDS (issue 19),
// and the first request of a window waits for the window's end plus a 2 s grace for other
// instances' commits. The bench runs with the smallest window (1 s) and reports both the whole
// time and the server's own part (from the end of that wait to the push's arrival: reading the
// group, encrypting with web-push, the HTTP request). With the default 60 s window, add the wait.
//
// The server runs with NODE_ENV=development: in production it sends pushes to https:// push
// services only.

import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { benchEnv, seed, startServer } from './bench-server.mjs';

const RUNS = 20;
const WINDOW_SECONDS = 1;
const GRACE_MS = 2000;

const arrivals = new Map();
const pushService = createServer((request, response) => {
  const at = Date.now();
  request.resume();
  request.on('end', () => {
    arrivals.set(request.url, at);
    response.writeHead(201).end();
  });
});
await new Promise((resolve) => pushService.listen(0, '127.0.0.1', resolve));
const pushOrigin = `http://127.0.0.1:${pushService.address().port}`;

const bench = benchEnv({
  env: { NODE_ENV: 'development', NOTIFICATION_GROUP_SECONDS: String(WINDOW_SECONDS) },
});
const server = await startServer(bench.env);

async function call(namespace, op, input, headers) {
  const response = await fetch(`${server.url}/pairql/${namespace}/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${op}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const pct = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];

try {
  const family = await seed(bench.env, 'family');
  const parent = { 'x-admintoken': family.adminToken };
  const browserKey = createECDH('prime256v1');
  browserKey.generateKeys();
  await call(
    'dashboard',
    'SavePushSubscription',
    {
      id: randomUUID(),
      endpoint: `${pushOrigin}/push/bench`,
      keys: {
        p256dh: browserKey.getPublicKey().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
      },
      label: 'Bench phone',
      triggers: ['suspendFilterRequestSubmitted'],
    },
    parent,
  );

  const total = [];
  const serverPart = [];
  for (let run = 0; run < RUNS; run++) {
    const mac = family.macs[run % family.macs.length];
    const before = arrivals.size;
    const sentAt = Date.now();
    const requestId = await call(
      'macos-app',
      'CreateSuspendFilterRequest_v2',
      { duration: 600, comment: `bench ${run}` },
      { 'x-usertoken': mac.token },
    );
    const deadline = Date.now() + 30_000;
    while (arrivals.size === before) {
      if (Date.now() > deadline) throw new Error(`no push for request ${run + 1} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const arrivedAt = arrivals.get('/push/bench');
    // the wait ends at the end of the request's whole window plus the grace
    const waitEnds =
      Math.ceil((sentAt + 1) / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000 + GRACE_MS;
    total.push(arrivedAt - sentAt);
    serverPart.push(arrivedAt - Math.min(waitEnds, arrivedAt));
    arrivals.delete('/push/bench');
    await call(
      'dashboard',
      'DecideFilterSuspensionRequest',
      { id: requestId, decision: { case: 'rejected' } },
      parent,
    );
    console.log(
      `  request ${String(run + 1).padStart(2)}: push after ${String(total.at(-1)).padStart(5)} ms ` +
        `(server's own part ${serverPart.at(-1)} ms)`,
    );
  }
  console.log(
    `\nChild's request → push at the push service, ${RUNS} requests, grouping window ${WINDOW_SECONDS} s ` +
      `+ ${GRACE_MS / 1000} s grace:\n` +
      `  whole time: median ${median(total)} ms, p90 ${pct(total, 90)} ms (min ${Math.min(...total)}, max ${Math.max(...total)})\n` +
      `  server's own part after the wait: median ${median(serverPart)} ms, p90 ${pct(serverPart, 90)} ms\n` +
      `  with the default 60 s window, a request waits for its window's end and the grace (up to 62 s) instead.`,
  );
} finally {
  await server.stop();
  bench.cleanup();
  pushService.close();
}
