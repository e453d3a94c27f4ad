// Small decisions about time that the service worker makes, kept pure for tests.

/** Reconnect delays for the push channel: 1 s, 2 s, 4 s … up to a minute, with some jitter. */
export function reconnectDelayMs(attempt: number, random = Math.random): number {
  const base = Math.min(60_000, 1_000 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export const OFFLINE_REPORT_AFTER_MS = 5 * 60_000;

/**
 * `filterOfflineWhileInUse`: the channel has been down for more than five minutes while the child
 * uses tabs. Once per outage: not again until the channel has been back.
 */
export function shouldReportOffline(input: {
  now: number;
  channelDownSince: number | undefined;
  reportedForOutageStartingAt: number | undefined;
}): boolean {
  const { now, channelDownSince, reportedForOutageStartingAt } = input;
  if (channelDownSince === undefined) return false;
  if (now - channelDownSince <= OFFLINE_REPORT_AFTER_MS) return false;
  return reportedForOutageStartingAt !== channelDownSince;
}

/** A screenshot `width` pixels wide with the tab's proportions (never wider than the capture). */
export function scaledSize(
  width: number,
  height: number,
  targetWidth: number,
): { width: number; height: number } {
  const scale = Math.min(1, targetWidth / width);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** chrome.alarms fire no sooner than 30 s from now. */
export const MIN_ALARM_MS = 30_000;

export function alarmTime(at: Date, now: number): number {
  return Math.max(at.getTime(), now + MIN_ALARM_MS);
}
