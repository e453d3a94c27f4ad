// The browser part of the activity benchmark (`npm run bench -- --activity`): opens one child's
// day in Debian's Chromium and measures
//   - firstItemsMs: from the start of the navigation to the first feed items painted;
//   - longestFrameMs: the longest frame while scrolling the day's page to its end (target <= 50 ms).
// The caller (scripts/bench-activity.mjs) starts the server, seeds the day and signs a parent in.
//
//   import { measureActivityPage } from './bench-activity-browser.mjs';
//   const figures = await measureActivityPage({ baseUrl, adminToken, childId, day });
//
// `day` is the local day of the browser, YYYY-MM-DD (or a Date). The browser runs in the time zone of
// this process, so a day computed here with local dates is the page's day too.

import { cpus, loadavg } from 'node:os';

export const LONGEST_FRAME_TARGET_MS = 50;

// Chromium's own counters (seconds): the main thread's CPU time (ThreadTime) next to the wall time
// of its tasks (TaskDuration). On a busy machine frames grow long while waiting for a CPU; the CPU
// time a frame needs is the page's own cost.
async function mainThreadMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map(({ name, value }) => [name, value]));
}

function perFrame(before, after, frames) {
  const ms = (name) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
  const each = (name) => (frames > 0 ? ms(name) / frames : 0);
  return {
    mainThreadCpuMsPerFrame: each('ThreadTime'),
    mainThreadTaskMsPerFrame: each('TaskDuration'),
    scriptMsPerFrame: each('ScriptDuration'),
    layoutAndStyleMsPerFrame: each('LayoutDuration') + each('RecalcStyleDuration'),
    cpuCount: cpus().length,
  };
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const pad = (value) => String(value).padStart(2, '0');
const toUrlDate = (day) =>
  typeof day === 'string'
    ? day
    : `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;

// Runs in the page before its scripts: notes when the first feed item is drawn, then the time
// after the next paint (a task queued from requestAnimationFrame runs once the frame is painted).
function recordFirstItems() {
  const found = () => document.querySelector('[role="feed"] article');
  const done = () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        window.__firstItemsPaintedAt = performance.now();
      }, 0),
    );
  const observer = new MutationObserver(() => {
    if (found()) {
      observer.disconnect();
      done();
    }
  });
  document.addEventListener('DOMContentLoaded', () => {
    if (found()) done();
    else observer.observe(document.body, { childList: true, subtree: true });
  });
}

// Runs in the page: scrolls to the end one step per frame and times every frame. Long animation
// frames (Chrome's LoAF entries) are recorded too when the browser reports them.
async function scrollToEndTimingFrames({ stepRatio, maxSeconds }) {
  const longFrames = [];
  let observer;
  if (PerformanceObserver.supportedEntryTypes?.includes('long-animation-frame')) {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longFrames.push(entry.duration);
    });
    observer.observe({ type: 'long-animation-frame', buffered: false });
  }
  const deltas = [];
  let maxArticles = 0;
  const startedAt = performance.now();
  const step = Math.round(window.innerHeight * stepRatio);
  await new Promise((resolve) => {
    let last = performance.now();
    let stillAtEnd = 0;
    function frame(now) {
      deltas.push(now - last);
      last = now;
      maxArticles = Math.max(
        maxArticles,
        document.querySelectorAll('[role="feed"] article').length,
      );
      const bottom = document.documentElement.scrollHeight - window.innerHeight;
      if (window.scrollY >= bottom - 1) stillAtEnd += 1;
      else stillAtEnd = 0;
      // at the end for a few frames in a row (the last rows are measured), or out of time
      if (stillAtEnd >= 5 || now - startedAt > maxSeconds * 1000) {
        resolve();
        return;
      }
      window.scrollBy(0, step);
      requestAnimationFrame(frame);
    }
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(frame);
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer?.disconnect();
  const sorted = [...deltas].sort((a, b) => a - b);
  return {
    frames: deltas.length,
    longestFrameMs: sorted.at(-1) ?? 0,
    p95FrameMs: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    longAnimationFrames: longFrames.length,
    longestAnimationFrameMs: longFrames.length ? Math.max(...longFrames) : undefined,
    scrolledPx: window.scrollY,
    reachedEnd: window.scrollY >= document.documentElement.scrollHeight - window.innerHeight - 1,
    seconds: (performance.now() - startedAt) / 1000,
    maxArticlesInDom: maxArticles,
  };
}

/**
 * Opens `/children/{childId}/activity/{day}` signed in with `adminToken` (and `adminId`, any value
 * works for the page; the API checks the token) and returns the figures. `runs` page loads are
 * measured (a fresh page each); the figures are medians, with every run kept in `runs`.
 */
export async function measureActivityPage({
  baseUrl,
  adminToken,
  adminId = '00000000-0000-4000-8000-000000000000',
  childId,
  day,
  runs = 3,
  viewport = { width: 1280, height: 800 },
  stepRatio = 1.5,
  maxScrollSeconds = 120,
}) {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const url = `${baseUrl.replace(/\/$/, '')}/children/${childId}/activity/${toUrlDate(day)}`;
  const results = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport });
      await context.addInitScript(
        ({ id, token }) => {
          localStorage.setItem('admin_id', id);
          localStorage.setItem('admin_token', token);
        },
        { id: adminId, token: adminToken },
      );
      await context.addInitScript(recordFirstItems);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const feedBytes = [];
      page.on('response', async (response) => {
        if (response.url().includes('/pairql/dashboard/UserActivityFeed')) {
          const body = await response.body().catch(() => null);
          if (body) feedBytes.push(body.length);
        }
      });
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => typeof window.__firstItemsPaintedAt === 'number', null, {
        timeout: 60_000,
      });
      const firstItemsMs = await page.evaluate(() => window.__firstItemsPaintedAt);
      const itemsAtStart = await page.locator('[role="feed"] article').count();
      const before = await mainThreadMetrics(cdp);
      const scroll = await page.evaluate(scrollToEndTimingFrames, {
        stepRatio,
        maxSeconds: maxScrollSeconds,
      });
      results.push({
        firstItemsMs,
        itemsAtStart,
        feedBytes: feedBytes[0],
        ...scroll,
        ...perFrame(before, await mainThreadMetrics(cdp), scroll.frames),
        loadAverage: loadavg()[0],
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (key) => {
    const values = results
      .map((result) => result[key])
      .filter((value) => typeof value === 'number')
      .sort((a, b) => a - b);
    return values.length ? values[Math.floor(values.length / 2)] : undefined;
  };
  const longestFrameMs = median('longestFrameMs');
  return {
    url,
    firstItemsMs: median('firstItemsMs'),
    longestFrameMs,
    p95FrameMs: median('p95FrameMs'),
    mainThreadCpuMsPerFrame: median('mainThreadCpuMsPerFrame'),
    maxArticlesInDom: Math.max(...results.map((result) => result.maxArticlesInDom)),
    loadAverage: median('loadAverage'),
    isLongestFrameOk: longestFrameMs !== undefined && longestFrameMs <= LONGEST_FRAME_TARGET_MS,
    runs: results,
  };
}

/** One line for the bench output. */
export function formatActivityPageFigures(figures) {
  const round = (value) => (value === undefined ? '?' : Math.round(value));
  const worstFrame = Math.max(...figures.runs.map((run) => run.longestFrameMs));
  return (
    `day page in Chromium (median of ${figures.runs.length}): first items painted ${round(figures.firstItemsMs)} ms; ` +
    `longest frame while scrolling to the end ${round(figures.longestFrameMs)} ms ` +
    `(worst run ${round(worstFrame)} ms, p95 ${round(figures.p95FrameMs)} ms, target <= ${LONGEST_FRAME_TARGET_MS} ms; ` +
    `main-thread CPU ${figures.mainThreadCpuMsPerFrame?.toFixed(1)} ms a frame; at most ${figures.maxArticlesInDom} items drawn at once; ` +
    `load average ${figures.loadAverage?.toFixed(1)}) ` +
    `${figures.isLongestFrameOk ? 'OK' : 'OVER'}`
  );
}
