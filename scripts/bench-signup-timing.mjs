#!/usr/bin/env node
// Does Signup's answer time reveal that an email already has a pending (unverified) account?
//
//   npm run bench -- --signup-timing [--rounds 60]
//
// Starts the real server (fresh SQLite database, emails to the outbox) and times, from a client,
// interleaved Signup calls: one for an email with a pending signup, one for a brand-new email,
// and so on. It prints both medians and exits 1 when they differ by more than 25 % (and 2 ms).
// KEYWARD_ROOT=<checkout> measures another checkout (e.g. an older commit) with the same client.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.KEYWARD_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 60;
const WARMUP = 5;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'keyward-bench-signup-'));
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
    WEB_DIST: join(dataDir, 'no-web'),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitForHealth();
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
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
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
