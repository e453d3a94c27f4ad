import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { readFile } from 'node:fs/promises';
import { parseInteger, UsageError } from '../args.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { generateScreenshotJpeg, type Jpeg, jpegSize, putJpeg } from '../jpeg.ts';
import { type Connected, loadConnected } from './shared.ts';

// What the Mac records for the parent to review (server-behaviour §4.3, §7.1): screenshots, uploaded
// through the signed URL the server issues, and typed lines.

const MINUTE = 60_000;

/** Asks for an upload URL (the row exists from then on), then PUTs the JPEG there. */
export async function uploadScreenshot(
  connected: Connected,
  image: Jpeg,
  options: { filterSuspended: boolean; createdAt: Date; signal?: AbortSignal },
): Promise<{ webUrl: string }> {
  const { uploadUrl, webUrl } = await connected.api.call('CreateSignedScreenshotUpload', {
    width: image.width,
    height: image.height,
    filterSuspended: options.filterSuspended,
    createdAt: toSwiftReferenceSeconds(options.createdAt),
  });
  await putJpeg(uploadUrl, image, options.signal);
  return { webUrl };
}

async function readImage(file: string): Promise<Jpeg> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new UsageError(`Cannot read the image file "${file}"`);
  }
  const size = jpegSize(bytes);
  if (!size) throw new UsageError(`"${file}" is not a JPEG image`);
  return { bytes, ...size };
}

/** `screenshot [--file x.jpg] [--suspended]`: upload one screenshot taken now. */
export async function screenshot(ctx: CommandContext): Promise<ExitCode> {
  const file = ctx.parsed.values.file;
  const image = file ? await readImage(file) : generateScreenshotJpeg(640, 400, Date.now() % 97);
  const connected = await loadConnected(ctx);
  const filterSuspended = ctx.parsed.flags.has('suspended');
  const { webUrl } = await uploadScreenshot(connected, image, {
    filterSuspended,
    createdAt: ctx.now(),
    signal: ctx.signal,
  });
  ctx.print(
    `uploaded a ${image.width}×${image.height} screenshot (${image.bytes.length} bytes)${filterSuspended ? ' taken during a suspension' : ''}`,
  );
  ctx.print(`  ${webUrl}`);
  return EXIT.ok;
}

/** `type <app> <text...> [--suspended]`: one typed line in an app, now. */
export async function type(ctx: CommandContext): Promise<ExitCode> {
  const [app, ...words] = ctx.parsed.args;
  if (!app || words.length === 0) throw new UsageError('type needs an app name and some text');
  const connected = await loadConnected(ctx);
  const line = words.join(' ');
  await connected.api.call('CreateKeystrokeLines', [
    {
      appName: app,
      line,
      filterSuspended: ctx.parsed.flags.has('suspended'),
      time: toSwiftReferenceSeconds(ctx.now()),
    },
  ]);
  ctx.print(`typed in ${app}: ${line}`);
  return EXIT.ok;
}

const TYPING: Record<string, string[]> = {
  Messages: [
    'are you coming to practice tomorrow',
    'lol yes',
    'can you send me the homework',
    'my mom says I have to finish reading first',
    'ok see you at 4',
  ],
  Safari: [
    'how many moons does jupiter have',
    'minecraft redstone door tutorial',
    'fractions worksheet grade 5',
    'best books like percy jackson',
  ],
  Notes: [
    'Science project: plant needs light water and air',
    'Shopping: glue sticks, poster board',
    'Ideas for the story: a dragon who is afraid of heights',
  ],
  Pages: [
    'The water cycle has four stages.',
    'First, water evaporates from lakes and oceans.',
    'Then it condenses into clouds.',
  ],
  Minecraft: ['anyone want to trade diamonds', 'building a castle at spawn', 'gg'],
  'Google Chrome': ['khan academy long division', 'youtube how to draw a horse'],
};
const APPS = Object.keys(TYPING);

export interface DayPlan {
  screenshots: { at: Date; filterSuspended: boolean }[];
  /** `time` in seconds since 2001-01-01, as the app sends a Date */
  lines: { appName: string; line: string; time: number; filterSuspended: boolean }[];
}

/**
 * A realistic day of `items` items between `start` and `end`: about half screenshots, evenly every
 * few minutes, half typed lines in bursts across several apps; everything in the middle 10 % of the
 * day happens during a filter suspension.
 */
export function planDay(start: Date, end: Date, items: number): DayPlan {
  const span = end.getTime() - start.getTime();
  const suspensionStart = start.getTime() + span * 0.45;
  const suspensionEnd = start.getTime() + span * 0.55;
  const during = (ms: number) => ms >= suspensionStart && ms < suspensionEnd;
  const numScreenshots = Math.ceil(items / 2);
  const numLines = items - numScreenshots;
  const screenshots = Array.from({ length: numScreenshots }, (_, i) => {
    const ms = start.getTime() + Math.round(((i + 0.5) * span) / numScreenshots);
    return { at: new Date(ms), filterSuspended: during(ms) };
  });
  const lines: DayPlan['lines'] = [];
  const burst = 3;
  for (let i = 0; i < numLines; i++) {
    const burstIndex = Math.floor(i / burst);
    const numBursts = Math.ceil(numLines / burst);
    const appName = APPS[burstIndex % APPS.length]!;
    const texts = TYPING[appName]!;
    const ms =
      start.getTime() + Math.round(((burstIndex + 0.25) * span) / numBursts) + (i % burst) * 20_000;
    lines.push({
      appName,
      line: texts[i % texts.length]!,
      time: toSwiftReferenceSeconds(new Date(Math.min(ms, end.getTime()))),
      filterSuspended: during(ms),
    });
  }
  return { screenshots, lines };
}

/** The part of the Mac's current local day that has passed (at least an hour: else yesterday 08-18). */
export function dayWindow(now: Date): { start: Date; end: Date } {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const morning = new Date(midnight.getTime() + 7 * 60 * MINUTE);
  if (now.getTime() - morning.getTime() >= 60 * MINUTE) return { start: morning, end: now };
  const yesterdayMorning = new Date(midnight);
  yesterdayMorning.setDate(yesterdayMorning.getDate() - 1);
  yesterdayMorning.setHours(8, 0, 0, 0);
  const yesterdayEvening = new Date(yesterdayMorning);
  yesterdayEvening.setHours(18, 0, 0, 0);
  return { start: yesterdayMorning, end: yesterdayEvening };
}

/** `activity --day [N]`: fill a realistic day with N items (default 60). */
export async function activity(ctx: CommandContext): Promise<ExitCode> {
  if (!ctx.parsed.flags.has('day')) throw new UsageError('activity needs --day');
  const raw = ctx.parsed.args[0];
  const items = raw === undefined ? 60 : parseInteger('items', raw, 2);
  if (items > 5000) throw new UsageError('activity --day makes at most 5000 items');
  const connected = await loadConnected(ctx);
  const { start, end } = dayWindow(ctx.now());
  const plan = planDay(start, end, items);

  for (const [index, shot] of plan.screenshots.entries()) {
    await uploadScreenshot(connected, generateScreenshotJpeg(640, 400, index), {
      filterSuspended: shot.filterSuspended,
      createdAt: shot.at,
      signal: ctx.signal,
    });
  }
  for (let offset = 0; offset < plan.lines.length; offset += 1000) {
    await connected.api.call('CreateKeystrokeLines', plan.lines.slice(offset, offset + 1000));
  }
  const suspended =
    plan.screenshots.filter((shot) => shot.filterSuspended).length +
    plan.lines.filter((line) => line.filterSuspended).length;
  const minutes = Math.round((end.getTime() - start.getTime()) / MINUTE / plan.screenshots.length);
  ctx.print(
    `recorded ${plan.screenshots.length} screenshots (about every ${minutes} minutes) and ${plan.lines.length} typed lines in ${new Set(plan.lines.map((l) => l.appName)).size} apps, ${start.toLocaleString()} – ${end.toLocaleString()}; ${suspended} during a suspension`,
  );
  return EXIT.ok;
}
