// What a browser really downloads for /login: the real server (production mode) serves the built
// dashboard, Chromium loads /login with an empty cache, and the Chrome DevTools Protocol reports
// every response's bytes on the wire (Network.loadingFinished encodedDataLength: compressed body
// plus response headers). Used by `npm run bench` (bench.mjs).

import { benchEnv, startServer } from './bench-server.mjs';

/** Prints the files and totals; returns the exit code (1 above `targetKb` of JavaScript). */
export async function measureLoginOnTheWire({ dist, targetKb, goalKb }) {
  const { chromium } = await import('@playwright/test');
  const bench = benchEnv({ env: { WEB_DIST: dist } });
  const server = await startServer(bench.env);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const responses = new Map();
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      responses.set(requestId, {
        path: new URL(response.url).pathname,
        encoding: headers['content-encoding'] ?? 'none',
        type: headers['content-type'] ?? '',
        wire: 0,
      });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const response = responses.get(requestId);
      if (response) response.wire = encodedDataLength;
    });
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);

    const files = [...responses.values()];
    const kind = (file) =>
      /javascript/.test(file.type)
        ? 'JS'
        : /css/.test(file.type)
          ? 'CSS'
          : /html/.test(file.type)
            ? 'HTML'
            : 'other';
    console.log(`\nWhat Chromium downloaded for /login from ${server.url} (bytes on the wire):`);
    for (const file of files) {
      console.log(
        `  ${file.path.padEnd(44)} ${kind(file).padEnd(5)} ${file.encoding.padEnd(5)} ${(file.wire / 1024).toFixed(1).padStart(7)} KB`,
      );
    }
    const sum = (k) =>
      files.filter((file) => kind(file) === k).reduce((total, file) => total + file.wire, 0) / 1024;
    const js = sum('JS');
    const css = sum('CSS');
    const all = files.reduce((total, file) => total + file.wire, 0) / 1024;
    const uncompressed = files.filter((file) => kind(file) !== 'other' && file.encoding === 'none');
    if (uncompressed.length)
      console.log(`Sent without Content-Encoding: ${uncompressed.map((f) => f.path).join(', ')}`);
    const ok = js <= targetKb;
    console.log(
      `\n/login on the wire: ${js.toFixed(1)} KB JS, ${css.toFixed(1)} KB CSS, ${all.toFixed(1)} KB in all ` +
        `(limit ${targetKb} KB JS, goal <= ${goalKb} KB) ${ok ? (js <= goalKb ? 'OK' : 'OK (over the goal)') : 'OVER THE LIMIT'}`,
    );
    return ok ? 0 : 1;
  } finally {
    await browser.close();
    await server.stop();
    bench.cleanup();
  }
}
