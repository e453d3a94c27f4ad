// Rules of a child's settings shared by the child editor and SaveUser, so both refuse the same
// values with the same words.

/** Screenshots smaller than this are unreadable; larger ones only fill the disk. */
export const MIN_SCREENSHOTS_RESOLUTION = 200;
export const MAX_SCREENSHOTS_RESOLUTION = 4000;

const pixels = (n: number) => n.toLocaleString('en-US');

export const SCREENSHOTS_RESOLUTION_HINT = `From ${pixels(MIN_SCREENSHOTS_RESOLUTION)} to ${pixels(MAX_SCREENSHOTS_RESOLUTION)} pixels.`;
export const SCREENSHOTS_RESOLUTION_MESSAGE = `Screenshot resolution must be between ${pixels(MIN_SCREENSHOTS_RESOLUTION)} and ${pixels(MAX_SCREENSHOTS_RESOLUTION)} pixels.`;

/** null when the resolution (pixels of the longer side) may be stored, else the message. */
export function screenshotsResolutionProblem(resolution: number): string | null {
  return Number.isInteger(resolution) &&
    resolution >= MIN_SCREENSHOTS_RESOLUTION &&
    resolution <= MAX_SCREENSHOTS_RESOLUTION
    ? null
    : SCREENSHOTS_RESOLUTION_MESSAGE;
}

/** Blocked apps are told apart by identifier, ignoring letter case and surrounding spaces. */
export function blockedAppKey(identifier: string): string {
  return identifier.trim().toLowerCase();
}

export function duplicateBlockedAppMessage(existing: string): string {
  return `'${existing.trim()}' is already in the blocked apps.`;
}

/**
 * null when `identifier` may join `blocked`, else the message naming the app already there (as the
 * parent first wrote it).
 */
export function blockedAppAdditionProblem(
  blocked: readonly string[],
  identifier: string,
): string | null {
  const key = blockedAppKey(identifier);
  const existing = blocked.find((other) => blockedAppKey(other) === key);
  return existing === undefined ? null : duplicateBlockedAppMessage(existing);
}

/** null when no identifier repeats in the list, else the message for the first repeated one. */
export function duplicateBlockedAppProblem(identifiers: readonly string[]): string | null {
  for (const [index, identifier] of identifiers.entries()) {
    const problem = blockedAppAdditionProblem(identifiers.slice(0, index), identifier);
    if (problem) return problem;
  }
  return null;
}
