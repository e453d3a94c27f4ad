import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childWithMac, requestSigned, TINY_JPEG } from './activity-helpers.ts';
import { deviceCall } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 31, finding 5: screenshot URLs are on the API's own address, and every answer carried
// helmet's `Cross-Origin-Resource-Policy: same-origin`, so a dashboard on another allowed origin
// (DASHBOARD_URL lists several) showed broken images (net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin).
// Now an image request from a page of an allowed origin is answered `cross-origin`; any other keeps
// `same-origin`.

const FIRST = 'https://dashboard.example.org';
const SECOND = 'https://reference.example.net';
let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ env: { DASHBOARD_URL: `${FIRST},${SECOND}` } });
});
afterAll(async () => server?.close());

async function storedScreenshot() {
  const parent = await server.signUpVerifiedParent();
  const mac = await childWithMac(server, parent.adminId);
  const issued = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, {
    width: 800,
    height: 500,
  });
  expect(issued.status).toBe(200);
  const { uploadUrl, webUrl } = issued.body as { uploadUrl: string; webUrl: string };
  expect((await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG)).status).toBe(200);
  return new URL(webUrl);
}

async function image(url: URL, headers: Record<string, string>) {
  return server.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers });
}

describe('a screenshot image', () => {
  test('loads on a page of every allowed dashboard origin', async () => {
    const url = await storedScreenshot();
    for (const origin of [FIRST, SECOND]) {
      const answer = await image(url, { referer: `${origin}/children/x/activity` });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(String(answer.headers.vary)).toMatch(/Referer/);
    }
    const withOrigin = await image(url, { origin: SECOND });
    expect(withOrigin.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  test('asked in CORS mode (Keyward’s own <img crossorigin>), it loads without any Referer', async () => {
    // the page's referrer policy may send no Referer: the browser still names its Origin
    const url = await storedScreenshot();
    for (const origin of [FIRST, SECOND]) {
      const answer = await image(url, { origin, 'sec-fetch-mode': 'cors' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
      expect(String(answer.headers.vary)).toMatch(/Origin/);
    }
    const elsewhere = await image(url, { origin: 'https://evil.example.com' });
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    expect(elsewhere.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  test('and on no other: same-origin for another site, or when the page is unknown', async () => {
    const url = await storedScreenshot();
    const pages: Record<string, string>[] = [
      { referer: 'https://evil.example.com/page' },
      { referer: `${FIRST}.evil.example.com/` },
      { origin: 'null' },
      { referer: 'not a url' },
      {},
    ];
    for (const headers of pages) {
      const answer = await image(url, headers);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cross-origin-resource-policy'], JSON.stringify(headers)).toBe(
        'same-origin',
      );
    }
  });

  test('the API itself keeps same-origin', async () => {
    const answer = await server.app.inject({
      method: 'POST',
      url: '/pairql/dashboard/GetUsers',
      headers: { 'content-type': 'application/json', referer: `${FIRST}/` },
      payload: 'null',
    });
    expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
    // a Keyward-served dashboard page names its origin to the API (helmet's no-referrer named none)
    expect(answer.headers['referrer-policy']).toBe('strict-origin');
  });
});
