import { LIMITS } from '@keyward/contract/constants';

// Extra monitoring a parent may add while granting a filter suspension (server-behaviour §3.5).
// Option keys are opaque on the wire but have a fixed grammar: `k` = add keylogging, `@N` = a
// screenshot every N seconds, `@N+k` = both.

/** The child's monitoring settings the offered options depend on. */
export interface ChildMonitoring {
  keyloggingEnabled: boolean;
  screenshotsEnabled: boolean;
  /** seconds between screenshots */
  screenshotsFrequency: number;
}

export interface ExtraMonitoring {
  /** a screenshot every N seconds during the suspension, when set */
  screenshotsFrequency?: number;
  addsKeylogging: boolean;
}

/** Intervals offered when the child has no screenshots at all. */
export const FIXED_SCREENSHOT_INTERVALS = [120, 90, 60, 30] as const;
/** Rates offered when screenshots are on: this many times as often as now. */
export const SCREENSHOT_RATE_MULTIPLIERS = [1.5, 2, 3] as const;

const KEYLOGGING_LABEL = 'keylogging';

export function extraMonitoringKey(extra: ExtraMonitoring): string {
  if (extra.screenshotsFrequency === undefined) return extra.addsKeylogging ? 'k' : '';
  return `@${extra.screenshotsFrequency}${extra.addsKeylogging ? '+k' : ''}`;
}

/** Reads an option key; undefined when it is not one (`k`, `@N`, `@N+k`, N a whole number). */
export function parseExtraMonitoringKey(key: string): ExtraMonitoring | undefined {
  if (key === 'k') return { addsKeylogging: true };
  const match = /^@([1-9]\d{0,5})(\+k)?$/.exec(key);
  if (!match) return undefined;
  return { screenshotsFrequency: Number(match[1]), addsKeylogging: match[2] !== undefined };
}

/** "every 2 minutes", "every minute", "every 45 seconds". */
export function describeInterval(seconds: number): string {
  if (seconds === 60) return 'every minute';
  if (seconds % 60 === 0) return `every ${seconds / 60} minutes`;
  return `every ${seconds} seconds`;
}

/** Words for an option key on its own (without the child's current rate): device side, logs. */
export function describeExtraMonitoringKey(key: string): string {
  const extra = parseExtraMonitoringKey(key);
  if (!extra) return key;
  const parts: string[] = [];
  if (extra.screenshotsFrequency !== undefined) {
    parts.push(`screenshots ${describeInterval(extra.screenshotsFrequency)}`);
  }
  if (extra.addsKeylogging) parts.push(KEYLOGGING_LABEL);
  return parts.join(' + ');
}

/**
 * The options offered to the parent, key → human label, in display order: keylogging alone, then
 * the screenshot options, then each screenshot option with keylogging. Intervals under the
 * screenshot-frequency minimum (10 s) are dropped.
 */
export function extraMonitoringOptions(child: ChildMonitoring): Record<string, string> {
  const screenshots: { seconds: number; label: string }[] = [];
  if (child.screenshotsEnabled) {
    for (const multiplier of SCREENSHOT_RATE_MULTIPLIERS) {
      const seconds = Math.floor(child.screenshotsFrequency / multiplier);
      screenshots.push({ seconds, label: `${multiplier}x screenshots` });
    }
  } else {
    for (const seconds of FIXED_SCREENSHOT_INTERVALS) {
      screenshots.push({ seconds, label: `screenshots ${describeInterval(seconds)}` });
    }
  }
  const offered = screenshots.filter(
    (option, index) =>
      option.seconds >= LIMITS.minScreenshotsFrequency &&
      screenshots.findIndex((other) => other.seconds === option.seconds) === index,
  );

  const options: Record<string, string> = {};
  const offersKeylogging = !child.keyloggingEnabled;
  if (offersKeylogging) options.k = KEYLOGGING_LABEL;
  for (const option of offered) options[`@${option.seconds}`] = option.label;
  if (offersKeylogging) {
    for (const option of offered) {
      options[`@${option.seconds}+k`] = `${option.label} + ${KEYLOGGING_LABEL}`;
    }
  }
  return options;
}
