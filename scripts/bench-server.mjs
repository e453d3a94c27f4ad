// Shared by the bench scripts: start the real server (apps/server/src/main.ts) as its own process
// on a fresh data directory, read its RSS, seed it, stop it.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** A fresh data directory (SQLite unless databaseUrl) shared by the server(s) and the seeding. */
export function benchEnv({ databaseUrl, env = {} } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-bench-'));
  return {
    dataDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      HMAC_KEY: 'a'.repeat(64),
      ENCRYPTION_KEY: 'b'.repeat(64),
      RATE_LIMIT_SCALE: '100000',
      SLACK_API_URL: 'outbox',
      INIT_CWD: root,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Starts the server; resolves once it listens. `ulimit -n` is raised to the hard limit. */
export function startServer(
  env,
  { name = 'server', nodeArgs = process.env.BENCH_NODE_ARGS ?? '' } = {},
) {
  const child = spawn(
    'bash',
    ['-c', `ulimit -n "$(ulimit -Hn)"; exec node ${nodeArgs} --import tsx apps/server/src/main.ts`],
    { cwd: root, env: { PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk) => {
    output += chunk;
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}):\n${output}`));
    });
    child.stdout.on('data', () => {
      const match = /Keyward is running at (\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        pid: child.pid,
        output: () => output,
        rssMb: () => rssMb(child.pid),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.removeAllListeners('exit');
            child.on('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Runs scripts/bench-seed.ts on the same database; returns its JSON. */
export function seed(env, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn('node', ['--import', 'tsx', 'scripts/bench-seed.ts', ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)))
        : reject(new Error(`seeding failed (${code})`)),
    );
  });
}

/** A fresh PostgreSQL database on the server at `baseUrl`, dropped by the returned function. */
export async function freshPostgres(baseUrl) {
  const { default: pg } = await import('pg');
  const name = `kw_bench_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
