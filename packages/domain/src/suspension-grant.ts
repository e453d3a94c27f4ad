// The parent's side of a filter-suspension request (spec §4, §5 'Suspension grant', §9).

/** The offered durations, in seconds. */
export const SUSPENSION_DURATIONS_SECONDS = [180, 300, 600, 1200, 1800, 3600, 5400, 7200] as const;
export const DEFAULT_SUSPENSION_SECONDS = 300;
export const MIN_SUSPENSION_SECONDS = 60;
/** A request older than this can no longer be decided. */
export const SUSPENSION_REQUEST_EXPIRY_MS = 2 * 60 * 60 * 1000;
/** The request date is shown once the request is older than this. */
export const SUSPENSION_REQUEST_DATE_AFTER_MS = 5 * 60 * 1000;

/** A chosen preset (in seconds) or 'custom' (minutes typed by the parent). */
export type SuspensionDurationChoice = number | 'custom';

/** '3 minutes', '1 hour', '1 hour 30 minutes', '2 hours'. */
export function suspensionDurationLabel(seconds: number): string {
  const totalMinutes = Math.round(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'hour' : 'hours'}`);
  if (minutes > 0 || hours === 0) parts.push(`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}

/** Spec §5: a custom duration must be a number greater than 1 minute. */
export function isValidCustomMinutes(input: string): boolean {
  const trimmed = input.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return false;
  return Number(trimmed) > 1;
}

/**
 * The granted duration in seconds: custom minutes × 60, else the preset, never under 60 s.
 * null when the custom minutes are not valid.
 */
export function grantedDurationSeconds(
  choice: SuspensionDurationChoice,
  customMinutes: string,
): number | null {
  if (choice === 'custom') {
    if (!isValidCustomMinutes(customMinutes)) return null;
    return Math.max(MIN_SUSPENSION_SECONDS, Math.round(Number(customMinutes.trim()) * 60));
  }
  return Math.max(MIN_SUSPENSION_SECONDS, choice);
}

/**
 * Issue 32: the duration a grant starts at is what the child asked for: that preset, else custom
 * minutes when they are whole and valid, else the nearest preset; the default (5 minutes) when
 * nothing was asked.
 */
export function preselectedSuspensionDuration(requestedSeconds: number | undefined): {
  duration: SuspensionDurationChoice;
  customMinutes: string;
} {
  if (
    requestedSeconds === undefined ||
    !Number.isFinite(requestedSeconds) ||
    requestedSeconds <= 0
  ) {
    return { duration: DEFAULT_SUSPENSION_SECONDS, customMinutes: '' };
  }
  const preset = SUSPENSION_DURATIONS_SECONDS.find((seconds) => seconds === requestedSeconds);
  if (preset !== undefined) return { duration: preset, customMinutes: '' };
  const minutes = requestedSeconds / 60;
  if (Number.isInteger(minutes) && isValidCustomMinutes(String(minutes))) {
    return { duration: 'custom', customMinutes: String(minutes) };
  }
  const nearest = SUSPENSION_DURATIONS_SECONDS.reduce((best, seconds) =>
    Math.abs(seconds - requestedSeconds) < Math.abs(best - requestedSeconds) ? seconds : best,
  );
  return { duration: nearest, customMinutes: '' };
}

function ageMs(createdAt: string, now: Date): number {
  return now.getTime() - new Date(createdAt).getTime();
}

export function isSuspensionRequestExpired(createdAt: string, now: Date): boolean {
  return ageMs(createdAt, now) > SUSPENSION_REQUEST_EXPIRY_MS;
}

export function shouldShowSuspensionRequestDate(createdAt: string, now: Date): boolean {
  return ageMs(createdAt, now) > SUSPENSION_REQUEST_DATE_AFTER_MS;
}
