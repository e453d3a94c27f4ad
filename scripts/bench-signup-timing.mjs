#!/usr/bin/env node
// Does Signup's answer time reveal that an email already has a pending (unverified) account?
//
//   npm run bench -- --signup-timing [--rounds 60]
//
// Starts the real server (fresh SQLite database, emails to the outbox) and times, from a client,
// interleaved Signup calls: one for an email with a pending signup, one for a brand-new email,
// and so on. It prints both medians and exits 1 when they differ by more than 25 % (and 2 ms).

import { randomBytes } from 'node:crypto';
import { benchEnv, startServer } from './bench-server.mjs';

const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 60;
const WARMUP = 5;

// Development mode's output checks are not what a browser waits for: production, as deployed.
const bench = benchEnv({ env: { DATABASE_URL: '', WEB_DIST: '/nonexistent' } });
const server = await startServer(bench.env, { name: 'signup-timing server' });
const base = server.url;

try {
  const email = (kind) => `${kind}-${randomBytes(6).toString('hex')}@example.com`;
  const pending = Array.from({ length: rounds + WARMUP }, () => email('pending'));
  for (const address of pending) await signup(address);

  const times = { pending: [], new: [] };
  for (let i = 0; i < rounds + WARMUP; i++) {
    // alternate which goes first, so neither kind always follows the other
    const order = i % 2 === 0 ? ['pending', 'new'] : ['new', 'pending'];
    for (const kind of order) {
      const ms = await signup(kind === 'pending' ? pending[i] : email('new'));
      if (i >= WARMUP) times[kind].push(ms);
    }
  }
  const pendingMs = median(times.pending);
  const newMs = median(times.new);
  const gap = Math.abs(pendingMs - newMs);
  const isOk = gap <= Math.max(2, 0.25 * Math.max(pendingMs, newMs));
  console.log(
    `Signup, median of ${rounds} interleaved calls each: pending email ${pendingMs.toFixed(1)} ms, ` +
      `new email ${newMs.toFixed(1)} ms (gap ${gap.toFixed(1)} ms) ${isOk ? 'OK' : 'REVEALING'}`,
  );
  process.exitCode = isOk ? 0 : 1;
} finally {
  await server.stop();
  bench.cleanup();
}

async function signup(address) {
  const started = performance.now();
  const response = await fetch(`${base}/pairql/dashboard/Signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: address, password: 'a good password' }),
  });
  await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`Signup answered ${response.status}`);
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
