import { fromSwiftReferenceSeconds } from '@keyward/contract/swift';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestServer, type TestServer } from '../../../apps/server/test/harness.ts';
import { run } from '../src/cli.ts';
import { dayWindow, planDay } from '../src/commands/activity.ts';
import type { ExitCode } from '../src/io.ts';
import { generateScreenshotJpeg, jpegSize } from '../src/jpeg.ts';

// `screenshot`, `type` and `activity --day` against the REAL server, listening on the port its
// dashboard URL names (the local store's signed upload URLs point there). The Mac's clock is pinned
// to the server's fake clock, 2025-01-15T12:00:00Z.

const NOW = new Date('2025-01-15T12:00:00.000Z');

describe('planDay and dayWindow', () => {
  test('half screenshots evenly spread, half lines in several apps, some during a suspension', () => {
    const start = new Date('2025-01-15T08:00:00Z');
    const end = new Date('2025-01-15T18:00:00Z');
    const plan = planDay(start, end, 41);
    expect(plan.screenshots).toHaveLength(21);
    expect(plan.lines).toHaveLength(20);
    const gaps = plan.screenshots
      .slice(1)
      .map((shot, i) => shot.at.getTime() - plan.screenshots[i]!.at.getTime());
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
    expect(new Set(plan.lines.map((line) => line.appName)).size).toBeGreaterThanOrEqual(5);
    const all = [
      ...plan.screenshots.map((shot) => ({ at: shot.at, s: shot.filterSuspended })),
      ...plan.lines.map((line) => ({
        at: fromSwiftReferenceSeconds(line.time),
        s: line.filterSuspended,
      })),
    ];
    expect(all.every(({ at }) => at >= start && at <= end)).toBe(true);
    expect(all.filter(({ s }) => s).length).toBeGreaterThan(0);
    expect(all.filter(({ s }) => !s).length).toBeGreaterThan(all.length / 2);
  });

  test.each([
    [
      'midday: from 07:00 until now',
      '2025-01-15T12:00:00',
      '2025-01-15T07:00:00',
      '2025-01-15T12:00:00',
    ],
    [
      'early morning: yesterday 08-18',
      '2025-01-15T06:30:00',
      '2025-01-14T08:00:00',
      '2025-01-14T18:00:00',
    ],
  ])('%s', (_name, now, start, end) => {
    // local times (no Z): the Mac's own day
    const window = dayWindow(new Date(now));
    expect([window.start.getTime(), window.end.getTime()]).toEqual([
      new Date(start).getTime(),
      new Date(end).getTime(),
    ]);
  });

  test('generated JPEGs carry their size and differ by seed', () => {
    const a = generateScreenshotJpeg(320, 200, 1);
    const b = generateScreenshotJpeg(320, 200, 2);
    expect(jpegSize(a.bytes)).toEqual({ width: 320, height: 200 });
    expect(a.bytes.equals(b.bytes)).toBe(false);
    expect(jpegSize(Buffer.from('not a jpeg'))).toBeUndefined();
  });
});

let server: TestServer;
let serverUrl: string;
let parentToken: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  serverUrl = `http://127.0.0.1:${port}`;
  server = await createTestServer({ env: { DASHBOARD_URL: serverUrl, PUBLIC_URL: serverUrl } });
  await server.app.listen({ host: '127.0.0.1', port });
  parentToken = (await server.signUpVerifiedParent()).token;
});
afterAll(async () => server.close());

async function dashboard(op: string, input?: unknown) {
  const result = await server.call(op, input, { token: parentToken });
  if (result.status !== 200) throw new Error(`${op} failed: ${JSON.stringify(result.body)}`);
  return result.body;
}

let dir: string;
let childId: string;
let output: string;
/** the Mac's clock: NOW, moved on by tests that need two moments */
let macNow: Date;

async function mac(argv: string[]): Promise<{ code: ExitCode; printed: string }> {
  const before = output.length;
  const code = await run(argv, {
    stdout: { write: (text: string) => (output += text) },
    env: { KEYWARD_SERVER: serverUrl, DEVICE_SIM_STATE: path.join(dir, 'state.json') },
    now: () => new Date(macNow),
  });
  return { code, printed: output.slice(before) };
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'device-sim-activity-'));
  output = '';
  macNow = new Date(NOW);
  childId = randomUUID();
  await dashboard('SaveUser', {
    id: childId,
    isNew: true,
    name: 'Ana',
    keyloggingEnabled: true,
    screenshotsEnabled: true,
    screenshotsResolution: 1000,
    screenshotsFrequency: 60,
    showSuspensionActivity: true,
    keychains: [],
  });
  const { code } = await dashboard('CreatePendingAppConnection', { userId: childId });
  expect((await mac(['connect', String(code)])).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const DAY = { start: '2025-01-14T23:59:59.999Z', end: '2025-01-15T23:59:59.999Z' };

describe('screenshot and type', () => {
  test('a generated screenshot reaches the parent as a real JPEG', async () => {
    const { code, printed } = await mac(['screenshot']);
    expect(code).toBe(0);
    expect(printed).toContain('uploaded a 640×400 screenshot');
    const feed = await dashboard('UserActivityFeed', { userId: childId, range: DAY });
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]).toMatchObject({
      case: 'screenshot',
      width: 640,
      height: 400,
      duringSuspension: false,
      createdAt: NOW.toISOString(),
    });
    const image = await fetch(feed.items[0].url);
    expect(image.status).toBe(200);
    expect(jpegSize(Buffer.from(await image.arrayBuffer()))).toEqual({ width: 640, height: 400 });
  });

  test('--file uploads that JPEG; --suspended marks it', async () => {
    const file = path.join(dir, 'shot.jpg');
    writeFileSync(file, generateScreenshotJpeg(320, 240, 5).bytes);
    const { code } = await mac(['screenshot', '--file', file, '--suspended']);
    expect(code).toBe(0);
    const feed = await dashboard('UserActivityFeed', { userId: childId, range: DAY });
    expect(feed.items[0]).toMatchObject({ width: 320, height: 240, duringSuspension: true });
  });

  test('a file that is not a JPEG is refused before anything is sent', async () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'hello');
    const { code, printed } = await mac(['screenshot', '--file', file]);
    expect(code).toBe(1);
    expect(printed).toContain('is not a JPEG image');
    const feed = await dashboard('UserActivityFeed', { userId: childId, range: DAY });
    expect(feed.items).toEqual([]);
  });

  test('typed lines in one app read as one entry', async () => {
    expect((await mac(['type', 'Notes', 'hello', 'world'])).printed).toContain(
      'typed in Notes: hello world',
    );
    macNow = new Date(NOW.getTime() + 5_000);
    expect((await mac(['type', 'Notes', 'second line'])).code).toBe(0);
    const feed = await dashboard('UserActivityFeed', { userId: childId, range: DAY });
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]).toMatchObject({
      case: 'keystrokeLine',
      appName: 'Notes',
      line: 'hello world\nsecond line',
    });
    expect(feed.items[0].ids).toHaveLength(2);
  });

  test('type without text is a usage error', async () => {
    const { code, printed } = await mac(['type', 'Notes']);
    expect(code).toBe(1);
    expect(printed).toContain('type needs an app name and some text');
  });
});

describe('activity --day', () => {
  test('fills the day: screenshots, lines in several apps, some during a suspension', async () => {
    const { code, printed } = await mac(['activity', '--day', '40']);
    expect(code).toBe(0);
    expect(printed).toMatch(
      /recorded 20 screenshots \(about every \d+ minutes\) and 20 typed lines/,
    );

    const offset = new Date(NOW).getTimezoneOffset();
    const summaries = await dashboard('ChildActivitySummaries', {
      childId,
      jsTimezoneOffsetMinutes: offset,
    });
    expect(summaries.days).toHaveLength(1);
    expect(summaries.days[0].numTotal).toBeGreaterThan(20);
    expect(summaries.days[0].numTotal).toBeLessThanOrEqual(40);

    const feed = await dashboard('UserActivityFeed', { userId: childId, range: DAY });
    const shots = feed.items.filter((item: { case: string }) => item.case === 'screenshot');
    expect(shots).toHaveLength(20);
    expect(feed.items.some((item: { duringSuspension: boolean }) => item.duringSuspension)).toBe(
      true,
    );
    const apps = new Set(
      feed.items
        .filter((item: { case: string }) => item.case === 'keystrokeLine')
        .map((item: { appName: string }) => item.appName),
    );
    expect(apps.size).toBeGreaterThanOrEqual(5);
    const image = await fetch(shots[0].url);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
  });

  test('needs --day', async () => {
    const { code, printed } = await mac(['activity']);
    expect(code).toBe(1);
    expect(printed).toContain('activity needs --day');
  });
});
