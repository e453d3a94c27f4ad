import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

// DEMO ONLY (`npm run demo`): two weeks of activity for each demo child, through the real device
// operations (CreateSignedScreenshotUpload + the signed PUT with real JPEG bytes, CreateKeystrokeLines)
// and the parent's (FlagActivityItems, DeleteActivityItems_v2): one heavy day of more than 300 items,
// some items during a filter suspension, some flagged, the older days already reviewed.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const SCREENSHOT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-screenshots');

const TYPING: Record<string, string[]> = {
  Messages: [
    'are you coming to practice tomorrow',
    'lol yes',
    'can you send me the homework',
    'ok see you at 4',
    'did you finish the reading',
  ],
  Safari: [
    'how many moons does jupiter have',
    'minecraft redstone door tutorial',
    'fractions worksheet grade 5',
    'best books like percy jackson',
  ],
  Notes: [
    'Science project: plant needs light water and air',
    'Ideas for the story: a dragon who is afraid of heights',
  ],
  Pages: ['The water cycle has four stages.', 'First, water evaporates from lakes and oceans.'],
  Minecraft: ['anyone want to trade diamonds', 'building a castle at spawn', 'gg'],
  Discord: ['who is online tonight', 'brb dinner'],
};

export interface DemoActivityChild {
  /** X-UserToken of the child's Mac */
  macToken: string;
  childId: string;
  /** items per ordinary day; the heavy day has `heavyDayItems` */
  itemsPerDay: number;
  heavyDayItems?: number;
}

type Call = (path: string, input: unknown, headers: Record<string, string>) => Promise<unknown>;

export async function seedDemoActivity(
  app: FastifyInstance,
  call: Call,
  options: { children: DemoActivityChild[]; asParent: Record<string, string>; now: Date },
): Promise<void> {
  const images = readdirSync(SCREENSHOT_DIR)
    .filter((file) => file.endsWith('.jpg'))
    .sort()
    .map((file) => readFileSync(path.join(SCREENSHOT_DIR, file)));
  const today = new Date(options.now);
  today.setUTCHours(0, 0, 0, 0);

  for (const child of options.children) {
    const asMac = { 'x-usertoken': child.macToken };
    for (let daysAgo = 13; daysAgo >= 0; daysAgo--) {
      const dayStart = today.getTime() - daysAgo * DAY;
      // the school day's computer time, 14:00-21:00 UTC; today: the last hours up to now
      const end = Math.min(dayStart + 21 * 60 * MINUTE, options.now.getTime() - MINUTE);
      const start = Math.max(
        dayStart,
        Math.min(dayStart + 14 * 60 * MINUTE, end - 3 * 60 * MINUTE),
      );
      if (end - start < 30 * MINUTE) continue;
      const items = daysAgo === 1 && child.heavyDayItems ? child.heavyDayItems : child.itemsPerDay;
      // on the heavy day and every fourth day the child had a 20-minute suspension
      const suspended = daysAgo === 1 || daysAgo % 4 === 0;
      const suspensionStart = start + (end - start) * 0.5;
      const during = (ms: number) =>
        suspended && ms >= suspensionStart && ms < suspensionStart + 20 * MINUTE;

      const numShots = Math.ceil(items / 2);
      for (let i = 0; i < numShots; i++) {
        const at = start + Math.round(((i + 0.5) * (end - start)) / numShots);
        const bytes = images[(i + daysAgo) % images.length]!;
        const { uploadUrl } = (await call(
          'macos-app/CreateSignedScreenshotUpload',
          {
            width: 480,
            height: 300,
            filterSuspended: during(at),
            createdAt: toSwiftReferenceSeconds(new Date(at)),
          },
          asMac,
        )) as { uploadUrl: string };
        await putScreenshot(app, uploadUrl, bytes);
      }

      const apps = Object.keys(TYPING);
      const numLines = items - numShots;
      // lines come in bursts of three in one app (one entry once coalesced); on the heavy day
      // every line is its own entry, so that day really has more than 300 items to review
      const burstSize = daysAgo === 1 && child.heavyDayItems ? 1 : 3;
      const lines = Array.from({ length: numLines }, (_, i) => {
        const burst = Math.floor(i / burstSize);
        const appName = apps[(burst + daysAgo) % apps.length]!;
        const texts = TYPING[appName]!;
        const at =
          start +
          Math.round(((burst + 0.3) * (end - start)) / Math.ceil(numLines / burstSize)) +
          (i % burstSize) * 1000;
        return {
          appName,
          line: texts[(i + daysAgo) % texts.length]!,
          filterSuspended: during(at),
          time: toSwiftReferenceSeconds(new Date(Math.min(at, end))),
        };
      });
      // issue 24: today one line raises a self-harm alert (for a child whose typing is recorded)
      if (daysAgo === 0) {
        lines.push({
          appName: 'Messages',
          line: 'this test is so hard i wanna diiie',
          filterSuspended: false,
          time: toSwiftReferenceSeconds(new Date(end - 10 * MINUTE)),
        });
      }
      for (let offset = 0; offset < lines.length; offset += 1000) {
        await call('macos-app/CreateKeystrokeLines', lines.slice(offset, offset + 1000), asMac);
      }

      await reviewDemoDay(call, options.asParent, child.childId, dayStart, daysAgo);
    }
  }
}

/** Flags a couple of items; the days 6+ ago are reviewed but for their flagged items (a review
 * keeps flagged ones), 3 days ago half reviewed. */
async function reviewDemoDay(
  call: Call,
  asParent: Record<string, string>,
  childId: string,
  dayStart: number,
  daysAgo: number,
) {
  const range = {
    start: new Date(dayStart - 1).toISOString(),
    end: new Date(dayStart + DAY - 1).toISOString(),
  };
  const feed = (await call('dashboard/UserActivityFeed', { userId: childId, range }, asParent)) as {
    items: { id: string; ids: string[]; case: string }[];
  };
  const toFlag = daysAgo % 3 === 1 ? feed.items.filter((_, i) => i % 25 === 7).slice(0, 3) : [];
  for (const item of toFlag) {
    await call('dashboard/FlagActivityItems', [item.id], asParent);
  }
  const flagged = new Set(toFlag.map((item) => item.id));
  const toReview =
    daysAgo >= 6
      ? feed.items
      : daysAgo === 3
        ? feed.items.slice(Math.floor(feed.items.length / 2))
        : [];
  const unflagged = toReview.filter((item) => !flagged.has(item.id));
  for (let offset = 0; offset < unflagged.length; offset += 100) {
    const chunk = unflagged.slice(offset, offset + 100);
    await call(
      'dashboard/DeleteActivityItems_v2',
      {
        screenshotIds: chunk.filter((item) => item.case === 'screenshot').flatMap((i) => i.ids),
        keystrokeLineIds: chunk
          .filter((item) => item.case === 'keystrokeLine')
          .flatMap((i) => i.ids),
      },
      asParent,
    );
  }
}

/** The local store's signed PUT is served by this same app; an S3 store is reached over HTTP. */
async function putScreenshot(app: FastifyInstance, uploadUrl: string, bytes: Buffer) {
  const url = new URL(uploadUrl);
  if (url.pathname.startsWith('/screenshots/')) {
    const response = await app.inject({
      method: 'PUT',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'image/jpeg' },
      payload: bytes,
    });
    if (response.statusCode === 200) return;
    throw new Error(`Demo seeding: screenshot upload answered ${response.statusCode}`);
  }
  const response = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: bytes,
  });
  if (!response.ok) throw new Error(`Demo seeding: S3 upload answered ${response.status}`);
}
