// Phone-profile benchmark (`npm run bench -- --phone`, issue 21): the real server (production
// mode) serves the built dashboard, and Debian's Chromium loads `/login` and the signed-in home
// page as a phone would: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower, a
// fresh browser context (empty cache) for every load. For each page it reports
//   - usefulMs: from the start of the navigation to the first useful element painted (the email
//     field of /login; the child's name on the home page),
//   - the first contentful paint,
//   - requests and bytes on the wire (before the useful element, and in all once the network is idle),
//   - chain: the longest run of sequential requests before the useful element: a request
//     follows another when it was sent after the other had finished; the number of links is
//     the number of round trips the page waited for one after the other (the icon of the tab,
//     which no page waits for, is left out).
// Loads alternate between the pages; the figures are medians of `--runs N` loads (default 5),
// with the spread (min–max) and the machine load (/proc/loadavg) next to them.
//
//   npm run bench -- --phone                 build, then measure
//   npm run bench -- --phone --no-build      measure the existing build (BENCH_WEB_DIST)
//   npm run bench -- --phone --runs 9 --json one JSON line with every run at the end
//   npm run bench -- --phone --reference DIR also load another build of a dashboard that speaks
//                                            the same wire (e.g. the reference product's, built
//                                            beside the repo, never committed) from a second
//                                            server on the same database, alternating loads with
//                                            ours, and print the ratios (ours / theirs)

import { loadavg } from 'node:os';
import { benchEnv, seed, startServer } from './bench-server.mjs';

export const PHONE = {
  latencyMs: 150,
  downloadBitsPerSecond: 1.6e6,
  uploadBitsPerSecond: 750e3,
  cpuSlowdown: 4,
  viewport: { width: 390, height: 844 },
};

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Runs in the page before its scripts: once it finds the target element, notes the time after the
// next paint (a task queued from requestAnimationFrame runs after the frame) and reports it through
// a CDP binding (`__benchUseful`). Nothing else of the harness runs in the page before that: waiting
// with Playwright's page.waitForFunction would inject Playwright's own script (hundreds of KB, about
// 100 ms of parsing on the slowed main thread) into the page in the middle of the load.
function recordUsefulElement(target) {
  const find = () =>
    target.kind === 'selector'
      ? document.querySelector(target.value)
      : document.evaluate(
          `//*[normalize-space(text())=${JSON.stringify(target.value)}]`,
          document,
          null,
          XPathResult.FIRST_ORDERED_NODE_TYPE,
          null,
        ).singleNodeValue;
  const done = () => {
    window.__usefulFoundAt = performance.now();
    requestAnimationFrame(() =>
      setTimeout(() => {
        window.__usefulPaintedAt = performance.now();
        window.__benchUseful?.(String(window.__usefulPaintedAt));
      }, 0),
    );
  };
  const observer = new MutationObserver(() => {
    if (find()) {
      observer.disconnect();
      done();
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * The session cookie the dashboard sets at sign-in (POST /session-cookie, issue 30), as the phone
 * keeps it: the browser's time zone is the machine's.
 */
async function sessionCookie(origin, token) {
  const response = await fetch(`${origin}/session-cookie`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admintoken': token },
    body: JSON.stringify({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
  });
  const [pair] = (response.headers.get('set-cookie') ?? '').split(';');
  const [name, ...value] = (pair ?? '').split('=');
  if (response.status !== 204 || !name) throw new Error(`no session cookie: ${response.status}`);
  return { name, value: value.join('=') };
}

/** The longest sequence of requests each sent after the previous one finished. */
export function longestChain(requests) {
  const sorted = [...requests].sort((a, b) => a.sentAt - b.sentAt);
  const best = new Map();
  for (const request of sorted) {
    let previous;
    for (const other of sorted) {
      if (other === request || other.finishedAt === undefined) continue;
      if (other.finishedAt > request.sentAt) continue;
      const length = best.get(other).length;
      if (!previous || length > best.get(previous).length) previous = other;
    }
    best.set(request, {
      length: previous ? best.get(previous).length + 1 : 1,
      previous,
    });
  }
  let last;
  for (const request of sorted) {
    if (!last || best.get(request).length > best.get(last).length) last = request;
  }
  const chain = [];
  for (let at = last; at; at = best.get(at).previous) chain.unshift(at);
  return chain;
}

async function loadOnce(browser, { url, target, signIn }) {
  const context = await browser.newContext({
    viewport: PHONE.viewport,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    if (signIn?.cookie) {
      // a parent signed in on this phone before: the session cookie the dashboard keeps beside the
      // stored token (issue 30), with which the server renders the home page
      await context.addCookies([{ ...signIn.cookie, url }]);
    }
    if (signIn) {
      await context.addInitScript(({ id, token }) => {
        localStorage.setItem('admin_id', id);
        localStorage.setItem('admin_token', token);
      }, signIn);
    }
    await context.addInitScript(recordUsefulElement, target);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.downloadBitsPerSecond / 8,
      uploadThroughput: PHONE.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });

    const requests = new Map();
    let documentWall; // epoch ms and CDP seconds of the document request, to line the clocks up
    cdp.on('Network.requestWillBeSent', ({ requestId, request, timestamp, wallTime, type }) => {
      if (request.url.startsWith('data:')) return;
      if (type === 'Document' && !documentWall) documentWall = { wallTime, timestamp };
      requests.set(requestId, {
        path: new URL(request.url).pathname,
        type,
        sentAt: timestamp,
        bytes: 0,
      });
    });
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const request = requests.get(requestId);
      if (request) request.mime = response.mimeType;
    });
    cdp.on('Network.loadingFinished', ({ requestId, timestamp, encodedDataLength }) => {
      const request = requests.get(requestId);
      if (!request) return;
      request.finishedAt = timestamp;
      request.bytes = encodedDataLength;
    });
    cdp.on('Network.loadingFailed', ({ requestId, timestamp }) => {
      const request = requests.get(requestId);
      if (request) request.finishedAt = timestamp;
    });

    await cdp.send('Runtime.enable');
    await cdp.send('Runtime.addBinding', { name: '__benchUseful' });
    const painted = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${url}: no useful element in 60 s`)),
        60_000,
      );
      cdp.on('Runtime.bindingCalled', ({ name }) => {
        if (name !== '__benchUseful') return;
        clearTimeout(timer);
        resolve();
      });
    });
    await page.goto(url, { waitUntil: 'commit' });
    await painted;
    // the paint timing entry is reported a little after the frame (the harness may run now)
    await page
      .waitForFunction(
        () => performance.getEntriesByName('first-contentful-paint').length > 0,
        null,
        {
          timeout: 5_000,
        },
      )
      .catch(() => {});
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => {});
    const timing = await page.evaluate(() => ({
      timeOrigin: performance.timeOrigin,
      usefulMs: window.__usefulPaintedAt,
      foundMs: window.__usefulFoundAt,
      fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    }));
    // CDP timestamps (seconds, monotonic) to milliseconds since the page's time origin
    const toPageMs = (seconds) =>
      documentWall.wallTime * 1000 + (seconds - documentWall.timestamp) * 1000 - timing.timeOrigin;
    const all = [...requests.values()].map((request) => ({
      ...request,
      sentMs: toPageMs(request.sentAt),
      finishedMs: request.finishedAt === undefined ? undefined : toPageMs(request.finishedAt),
    }));
    const isJs = (request) => /javascript/.test(request.mime ?? '') || request.type === 'Script';
    const before = all.filter((request) => request.sentMs <= timing.foundMs);
    const chain = longestChain(
      before
        .filter(
          (request) => request.finishedMs !== undefined && request.finishedMs <= timing.foundMs,
        )
        .filter((request) => !request.path.startsWith('/favicon'))
        .map((request) => ({ ...request, sentAt: request.sentMs, finishedAt: request.finishedMs })),
    );
    const sum = (list) => list.reduce((total, request) => total + request.bytes, 0);
    return {
      usefulMs: timing.usefulMs,
      fcpMs: timing.fcpMs,
      requests: all.length,
      jsFiles: all.filter(isJs).length,
      kb: sum(all) / 1024,
      jsKb: sum(all.filter(isJs)) / 1024,
      requestsBefore: before.length,
      kbBefore: sum(before) / 1024,
      chain: chain.length,
      chainPaths: chain.map((request) => request.path.replace(/^\/assets\//, '')),
      dataRequests: all
        .filter((request) => request.path.startsWith('/pairql/'))
        .map((request) => ({
          op: request.path.split('/').at(-1),
          sentMs: Math.round(request.sentMs),
          finishedMs: Math.round(request.finishedMs ?? Number.NaN),
        })),
      lastJsFinishedMs: Math.max(
        ...all.filter(isJs).map((request) => request.finishedMs ?? Number.NEGATIVE_INFINITY),
      ),
    };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function summarise(name, runs) {
  const figure = (key, digits = 0) => {
    const values = runs.map((run) => run[key]);
    return {
      median: median(values),
      min: Math.min(...values),
      max: Math.max(...values),
      text: `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`,
    };
  };
  return {
    name,
    usefulMs: figure('usefulMs'),
    fcpMs: figure('fcpMs'),
    requests: figure('requests'),
    jsFiles: figure('jsFiles'),
    kb: figure('kb', 1),
    jsKb: figure('jsKb', 1),
    requestsBefore: figure('requestsBefore'),
    chain: figure('chain'),
  };
}

/** Measures; prints a table; returns the summaries (and every run). */
export async function measurePhone({ dist, runs = 5, json = false, reference }) {
  const { chromium } = await import('@playwright/test');
  const bench = benchEnv({ env: { WEB_DIST: dist } });
  const server = await startServer(bench.env);
  // the other build, served by a second server process on the same data directory and database
  // (its files precompressed as it ships them, e.g. `.gz` beside each text file)
  const other = reference
    ? await startServer({ ...bench.env, WEB_DIST: reference }, { name: 'reference server' })
    : undefined;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const loadBefore = loadavg();
  try {
    const family = await seed(bench.env, 'home');
    const cookie = await sessionCookie(server.url, family.adminToken);
    const pagesOf = (origin, label) => [
      {
        name: `${label}/login: email field`,
        url: `${origin}/login`,
        target: { kind: 'selector', value: 'input[type="email"]' },
      },
      {
        name: `${label}home: child's name`,
        url: `${origin}/`,
        target: { kind: 'text', value: family.childName },
        signIn: { id: family.adminId, token: family.adminToken, cookie },
      },
    ];
    // alternating: our /login, theirs, our home, theirs
    const pages = other
      ? pagesOf(server.url, '').flatMap((page, i) => [page, pagesOf(other.url, 'ref ')[i]])
      : pagesOf(server.url, '');
    // one load of each first, not counted: the server's first answers (cold caches) are slower
    for (const page of pages) await loadOnce(browser, page);
    const results = pages.map(() => []);
    for (let run = 0; run < runs; run++) {
      for (const [i, page] of pages.entries()) {
        const result = await loadOnce(browser, page);
        results[i].push(result);
        console.log(
          `  ${page.name.padEnd(26)} run ${run + 1}: ${result.usefulMs.toFixed(0).padStart(5)} ms, ` +
            `${result.requests} requests (${result.jsFiles} JS), ${result.kb.toFixed(1)} KB, ` +
            `chain ${result.chain}: ${result.chainPaths.join(' → ')}` +
            (result.dataRequests.length
              ? `; data ${result.dataRequests.map((d) => `${d.op} ${d.sentMs}–${d.finishedMs}`).join(', ')}; last JS done ${result.lastJsFinishedMs.toFixed(0)}`
              : ''),
        );
      }
    }
    const loadAfter = loadavg();
    const summaries = pages.map((page, i) => summarise(page.name, results[i]));
    console.log(
      `\nPhone profile: ${PHONE.latencyMs} ms RTT, ${PHONE.downloadBitsPerSecond / 1e6} Mbit/s down, ` +
        `${PHONE.uploadBitsPerSecond / 1e3} kbit/s up, CPU ${PHONE.cpuSlowdown}× slower; ` +
        `median (min–max) of ${runs} cold loads each`,
    );
    console.log(
      `${'page'.padEnd(26)} ${'useful ms'.padStart(18)} ${'FCP ms'.padStart(18)} ${'requests'.padStart(12)} ${'JS files'.padStart(12)} ${'KB on wire'.padStart(18)} ${'JS KB'.padStart(18)} ${'chain'.padStart(10)}`,
    );
    for (const s of summaries) {
      console.log(
        `${s.name.padEnd(26)} ${s.usefulMs.text.padStart(18)} ${s.fcpMs.text.padStart(18)} ${s.requests.text.padStart(12)} ${s.jsFiles.text.padStart(12)} ${s.kb.text.padStart(18)} ${s.jsKb.text.padStart(18)} ${s.chain.text.padStart(10)}`,
      );
    }
    console.log(
      `load average (1, 5, 15 min): before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, ` +
        `after ${loadAfter.map((v) => v.toFixed(2)).join(' ')}`,
    );
    if (other) {
      console.log('\nOurs / reference (medians):');
      for (let i = 0; i < summaries.length; i += 2) {
        const [ours, theirs] = [summaries[i], summaries[i + 1]];
        const ratio = (key) => (ours[key].median / theirs[key].median).toFixed(2);
        console.log(
          `  ${ours.name.padEnd(26)} useful ${ratio('usefulMs')}×, FCP ${ratio('fcpMs')}×, ` +
            `JS ${ratio('jsKb')}× (${ours.jsKb.median.toFixed(0)} vs ${theirs.jsKb.median.toFixed(0)} KB), ` +
            `requests ${ours.requests.median} vs ${theirs.requests.median}, chain ${ours.chain.median} vs ${theirs.chain.median}`,
        );
      }
    }
    if (json) console.log(JSON.stringify({ summaries, results, loadBefore, loadAfter }));
    return { summaries, results };
  } finally {
    await browser.close();
    await server.stop();
    await other?.stop();
    bench.cleanup();
  }
}
