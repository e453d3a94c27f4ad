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
