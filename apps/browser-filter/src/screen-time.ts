import type { BrowserScreenTime, BrowserUsedMinute } from '@keyward/contract/browser';
import { MAX_USED_MINUTES_PER_CHECK_IN } from '@keyward/contract/browser';
import {
  MAX_REPORT_AGE_DAYS,
  minutesInWords,
  WARN_MINUTES_BEFORE,
} from '@keyward/domain/screen-time';

// Issue 34: the extension's side of screen time, kept pure for tests. The service worker counts a
// minute when, at one of its ticks, the browser is focused, the user not idle (chrome.idle) and
// the active tab of the focused window (the visible one) shows a counted site. Minutes wait in
// chrome.storage.local until a check-in sends them (a week at most, as the server accepts), so
// time used offline is counted too, and today's remaining time is the server's answer minus what
// has not been sent yet.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Counted minutes not sent yet: minute (ISO, whole minute) → site. */
export type UsedMinutes = Record<string, string>;

/** Adds a minute (once), and forgets minutes older than the server accepts. */
export function withMinute(
  used: UsedMinutes,
  bucket: string,
  site: string,
  now: Date,
): UsedMinutes {
  const oldest = now.getTime() - MAX_REPORT_AGE_DAYS * DAY_MS;
  const kept: UsedMinutes = {};
  for (const [minute, host] of Object.entries(used)) {
    if (Date.parse(minute) >= oldest) kept[minute] = host;
  }
  if (!(bucket in kept)) kept[bucket] = site;
  return kept;
}

/** The oldest minutes first, as many as one check-in may carry. */
export function minutesToSend(used: UsedMinutes): BrowserUsedMinute[] {
  return Object.entries(used)
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(0, MAX_USED_MINUTES_PER_CHECK_IN)
    .map(([minute, site]) => ({ minute: minute.replace(/\.\d{3}Z$/, 'Z'), site }));
}

/** What is left once `sent` reached the server. */
export function withoutSent(used: UsedMinutes, sent: readonly BrowserUsedMinute[]): UsedMinutes {
  const gone = new Set(sent.map((m) => Date.parse(m.minute)));
  return Object.fromEntries(
    Object.entries(used).filter(([minute]) => !gone.has(Date.parse(minute))),
  );
}

/**
 * Minutes left today: the server's answer minus the minutes of today not sent yet. null: no limit
 * today, or the day the answer was for is over (the next check-in says).
 */
export function remainingMinutes(
  screenTime: BrowserScreenTime | undefined,
  used: UsedMinutes,
  now: Date,
): number | null {
  if (!screenTime || screenTime.remainingMinutes === null) return null;
  const resetsAt = Date.parse(screenTime.resetsAt);
  if (now.getTime() >= resetsAt) return null;
  const unsentToday = Object.keys(used).filter((minute) => {
    const at = Date.parse(minute);
    return at >= resetsAt - DAY_MS && at < resetsAt;
  }).length;
  return Math.max(0, screenTime.remainingMinutes - unsentToday);
}

/** The warning is shown once per day and allowance (a grant gives a new one). */
export function warningKey(screenTime: BrowserScreenTime): string {
  return `${screenTime.resetsAt}|${screenTime.allowedMinutes}`;
}

export function shouldWarn(remaining: number | null): boolean {
  return remaining !== null && remaining > 0 && remaining <= WARN_MINUTES_BEFORE;
}

export function warningWords(remaining: number): string {
  return remaining === 1
    ? 'Keyward: 1 minute of screen time left today.'
    : `Keyward: ${remaining} minutes of screen time left today.`;
}

/** "at 00:00" (today or tomorrow, in this browser's clock). */
export function timeOfDay(at: Date): string {
  return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** The Time's up page's first line: what was used and when it starts again. */
export function timesUpWords(screenTime: BrowserScreenTime, now: Date): string {
  const used = minutesInWords(Math.max(screenTime.usedMinutes, screenTime.allowedMinutes ?? 0));
  const resetsAt = new Date(screenTime.resetsAt);
  const when =
    resetsAt.getTime() - now.getTime() < DAY_MS && resetsAt.getDate() !== now.getDate()
      ? `at midnight (${timeOfDay(resetsAt)})`
      : `at ${timeOfDay(resetsAt)}`;
  return `You have used your ${used} of screen time for today. It starts again ${when}.`;
}

/** The pause page's line. */
export function pausedWords(until: string | undefined): string {
  return until
    ? `A parent paused the internet until ${timeOfDay(new Date(until))}.`
    : 'A parent paused the internet until they turn it back on.';
}
