import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childWithMac } from './activity-helpers.ts';
import { stripeUrl } from './billing-helpers.ts';
import { deviceCall } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// issue 18: URLs that devices and browsers must reach on the API are built on the API's own public
// address (PUBLIC_URL, default the server's own), never on a dashboard served from another origin.

const DASHBOARD = 'https://dashboard.example.org';
const API = 'https://api.example.org';

describe.each([
  ['PUBLIC_URL unset: the server’s own address', {}, 'http://127.0.0.1:8080'],
  ['PUBLIC_URL set', { PUBLIC_URL: `${API}/` }, API],
])('%s', (_name, env, publicUrl) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ env: { DASHBOARD_URL: DASHBOARD, ...env } });
  });
  afterAll(async () => server.close());

  test('a Mac’s screenshot upload and image URLs', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, parent.adminId);
    const result = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, {
      width: 800,
      height: 500,
    });
    expect(result.status).toBe(200);
    expect(new URL(result.body.uploadUrl).origin).toBe(publicUrl);
    expect(new URL(result.body.webUrl).origin).toBe(publicUrl);
  });

  test('the billing simulator’s checkout page, while the way back goes to the dashboard', async () => {
    const parent = await server.signUpVerifiedParent();
    const checkout = await stripeUrl(server, parent);
    expect(checkout.origin).toBe(publicUrl);
  });
});

test('PUBLIC_URL must be an http(s) address', async () => {
  await expect(createTestServer({ env: { PUBLIC_URL: 'api.example.org' } })).rejects.toThrow(
    /PUBLIC_URL/,
  );
});

describe('PORT=0: the server listens on a free port, and its own address names that port', () => {
  test('the getting-started page gives the real address, not :0', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'keyward-port0-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        HMAC_KEY: 'a'.repeat(64),
        ENCRYPTION_KEY: 'b'.repeat(64),
        SLACK_API_URL: 'outbox',
        DATABASE_URL: '',
        PUBLIC_URL: '',
        DASHBOARD_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${output}`)), 60_000);
        const collect = (chunk: Buffer) => {
          output += chunk;
          const match = /Keyward is running at (\S+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on('data', collect);
        child.stderr.on('data', collect);
        child.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
      });
      const port = Number(new URL(url).port);
      expect(port).toBeGreaterThan(0);
      const page = await (await fetch(`${url}/getting-started`)).text();
      expect(page).toContain(`http://127.0.0.1:${port}/downloads/keyward-chrome-updates.xml`);
      expect(page).not.toContain('127.0.0.1:0');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
