import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDnsUpstream } from './dns-upstream.ts';
import { startMailCatcher } from './mail-catcher.ts';
import { startSlackCatcher } from './slack-catcher.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// E2E_WEB_DIST lets several people (or agents) test their own build side by side.
const webDist = process.env.E2E_WEB_DIST ?? join(root, 'apps/web/dist');

/**
 * Starts a local SMTP catcher and the real server (fresh SQLite database, built SPA) for the
 * whole run. Tests find them through E2E_BASE_URL and E2E_MAIL_DIR (workers inherit our env).
 * The returned function is the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(join(webDist, 'index.html'))) buildWeb();

  const workDir = mkdtempSync(join(tmpdir(), 'keyward-e2e-'));
  const mailDir = join(workDir, 'mail');
  const dataDir = join(workDir, 'data');
  const slackDir = join(workDir, 'slack');
  mkdirSync(mailDir);
  mkdirSync(dataDir);
  mkdirSync(slackDir);
  // Serve a copy of the build, so a rebuild of apps/web during the run cannot swap chunks under us.
  const webCopy = join(workDir, 'web');
  cpSync(webDist, webCopy, { recursive: true });

  const catcher = await startMailCatcher(mailDir);
  const slack = await startSlackCatcher(slackDir);
  // issue 33: Keyward DNS forwards allowed names to a local fake, and serves DoH over HTTPS
  const dnsUpstream = await startDnsUpstream();
  const dohPort = await freePort();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logPath = join(workDir, 'server.log');
  const log = createWriteStream(logPath);

  // The e2e run always uses its own SQLite file, whatever the caller's environment says.
  const { DATABASE_URL: _db, ...inherited } = process.env;
  const server = spawn(join(root, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${catcher.port}`,
      SLACK_API_URL: slack.url,
      NODE_ENV: 'test',
      RATE_LIMIT_SCALE: '1000',
      // A child's requests are one parent notification per window (issue 19); a short window keeps
      // the tests that wait for that email quick.
      NOTIFICATION_GROUP_SECONDS: '2',
      // Screenshot links expire quickly, so a test can see one stop working.
      SCREENSHOT_READ_URL_SECONDS: '20',
      // Links use the first; the second lets a test use passkeys, which need a domain name
      // (WebAuthn refuses an IP address as relying party).
      DASHBOARD_URL: `${baseURL},http://localhost:${port}`,
      WEB_DIST: webCopy,
      DNS_UPSTREAM: dnsUpstream.url,
      DNS_DOH_PORT: String(dohPort),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  const stop = async () => {
    await stopProcess(server);
    await catcher.close();
    await slack.close();
    await dnsUpstream.close();
    log.end();
    if (process.env.KEEP_E2E_TMP) console.log(`e2e files kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseURL, server, 60_000);
  } catch (error) {
    const tail = existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`${(error as Error).message}\n--- server log (tail) ---\n${tail}`);
  }

  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_SLACK_DIR = slackDir;
  process.env.E2E_SERVER_LOG = logPath;
  process.env.E2E_DOH_PORT = String(dohPort);
  // the CA the server generated for its DoH certificate (apps/server/src/dns/certificates.ts)
  process.env.E2E_DNS_CA_FILE = join(dataDir, 'dns-tls', 'ca.pem');
  return stop;
}

function buildWeb(): void {
  console.log('apps/web/dist is missing: building the SPA (npm run build -w apps/web)');
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Building the SPA failed (npm run build -w apps/web)');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseURL: string, server: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`The server exited with code ${server.exitCode} before becoming healthy`);
    }
    try {
      const response = await fetch(`${baseURL}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer GET /healthz within ${timeoutMs / 1000} s`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
