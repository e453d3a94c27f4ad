// The load generator of bench-dns.ts, in a worker thread: `connections` DoT connections (or one
// HTTP/2 session with as many streams) each keeping `depth` queries in flight for `seconds`; or,
// with `rate` (DoT only), the connections sending `rate` queries per second in all whatever the
// answers (an open loop: a slow answer does not slow the next query), each timed from its write.
import http2 from 'node:http2';
import tls from 'node:tls';
import { parentPort, workerData as threadData } from 'node:worker_threads';
import dnsPacket from 'dns-packet';

// in a worker thread, or (bench-dns.ts --pinned) a child process on its own core, its spec in
// KEYWARD_BENCH_SPEC and its result sent over IPC
const workerData = threadData ?? JSON.parse(process.env.KEYWARD_BENCH_SPEC ?? '{}');
const report = (result) => (parentPort ? parentPort.postMessage(result) : process.send(result));
const { transport, port, servername, path, names, seconds, connections, depth, ca, rate } =
  workerData;
const queries = names.map((name) =>
  dnsPacket.encode({
    id: 0,
    type: 'query',
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: 'A', class: 'IN' }],
  }),
);
const latencies = [];
let errors = 0;
let next = 0;
const deadline = performance.now() + seconds * 1000;

function framed(message, id) {
  const out = Buffer.alloc(message.length + 2);
  out.writeUInt16BE(message.length, 0);
  message.copy(out, 2);
  out.writeUInt16BE(id, 2);
  return out;
}

function dotConnection() {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca });
    const sentAt = new Map();
    let id = 0;
    let buffered = Buffer.alloc(0);
    const send = () => {
      if (performance.now() > deadline) {
        if (sentAt.size === 0) {
          socket.destroy();
          resolve();
        }
        return;
      }
      id = (id + 1) & 0xffff;
      sentAt.set(id, performance.now());
      socket.write(framed(queries[next++ % queries.length], id));
    };
    const sendAtRate = () => {
      // what this connection should have sent by now, sent now (timers are late, not lost)
      const perMs = rate / connections / 1000;
      const startedAt = performance.now();
      let sent = 0;
      const tick = () => {
        const now = performance.now();
        if (now > deadline) {
          if (sentAt.size === 0) {
            socket.destroy();
            resolve();
          } else setTimeout(tick, 5);
          return;
        }
        const due = Math.floor((now - startedAt) * perMs);
        for (; sent < due; sent++) {
          id = (id + 1) & 0xffff;
          sentAt.set(id, performance.now());
          socket.write(framed(queries[next++ % queries.length], id));
        }
        setTimeout(tick, 1);
      };
      tick();
    };
    socket.on('secureConnect', () => {
      if (rate) sendAtRate();
      else for (let i = 0; i < depth; i++) send();
    });
    socket.on('error', () => {
      errors++;
      resolve();
    });
    socket.on('data', (chunk) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      while (buffered.length >= 2 && buffered.length >= buffered.readUInt16BE(0) + 2) {
        const length = buffered.readUInt16BE(0);
        const answerId = buffered.readUInt16BE(2);
        buffered = buffered.subarray(2 + length);
        const at = sentAt.get(answerId);
        if (at !== undefined) {
          latencies.push(performance.now() - at);
          sentAt.delete(answerId);
        } else errors++;
        if (!rate) send();
        else if (performance.now() > deadline && sentAt.size === 0) {
          socket.destroy();
          resolve();
        }
      }
    });
  });
}

function dohSession() {
  return new Promise((resolve) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca, servername: 'dns.localhost' });
    let inFlight = 0;
    const send = () => {
      if (performance.now() > deadline) {
        if (inFlight === 0) {
          session.close();
          resolve();
        }
        return;
      }
      inFlight++;
      const started = performance.now();
      const stream = session.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/dns-message',
      });
      stream.on('response', () => {});
      stream.on('data', () => {});
      stream.on('end', () => {
        inFlight--;
        latencies.push(performance.now() - started);
        send();
      });
      stream.on('error', () => {
        inFlight--;
        errors++;
        send();
      });
      stream.end(queries[next++ % queries.length]);
    };
    session.on('error', () => {
      errors++;
      resolve();
    });
    session.on('connect', () => {
      for (let i = 0; i < depth * connections; i++) send();
    });
  });
}

const started = performance.now();
if (transport === 'dot') await Promise.all(Array.from({ length: connections }, dotConnection));
else await dohSession();
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
report({ qps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors });
if (!parentPort) process.disconnect();
