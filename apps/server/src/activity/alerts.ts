import {
  BUILT_IN_ALERT_CATEGORIES,
  DEFAULT_ALERT_CATEGORIES,
} from '@keyward/domain/alert-categories';
import type { AlertMatcher } from '@keyward/domain/alert-matcher';
import {
  type ChildAlertSettings,
  customAlertMatcher,
  type LineAlert,
  alertForLine,
} from '@keyward/domain/alerts';
import type { AlertCategory } from '@keyward/domain/alert-categories';
import type { Db } from '../db/database.ts';
import { fromDbBool, fromDbJson } from '../db/values.ts';

// Issue 24: the alert settings of a child as stored, and the alerts of a batch of typed lines. The
// matching runs here, on the server: no typed text is sent anywhere to be checked.

/** Stored categories, keeping only the built-in names this server knows. */
export function storedAlertCategories(value: unknown): string[] {
  const parsed =
    value === null || value === undefined ? DEFAULT_ALERT_CATEGORIES : fromDbJson<unknown>(value);
  if (!Array.isArray(parsed)) return [...DEFAULT_ALERT_CATEGORIES];
  return (BUILT_IN_ALERT_CATEGORIES as readonly string[]).filter((category) =>
    parsed.includes(category),
  );
}

export function storedAlertWords(value: unknown): string[] {
  const parsed = value === null || value === undefined ? [] : fromDbJson<unknown>(value);
  return Array.isArray(parsed) ? parsed.filter((word) => typeof word === 'string') : [];
}

// The parent's own words compile in microseconds, but a Mac sends a batch every few seconds: keep
// the last few children's automata, keyed by their words.
const CUSTOM_CACHE_SIZE = 200;
const customMatchers = new Map<string, AlertMatcher<AlertCategory>>();

function cachedCustomMatcher(words: readonly string[]): AlertMatcher<AlertCategory> | undefined {
  if (words.length === 0) return undefined;
  const key = JSON.stringify(words);
  let matcher = customMatchers.get(key);
  if (matcher) {
    customMatchers.delete(key);
  } else {
    matcher = customAlertMatcher(words);
    if (customMatchers.size >= CUSTOM_CACHE_SIZE) {
      const oldest = customMatchers.keys().next().value;
      if (oldest !== undefined) customMatchers.delete(oldest);
    }
  }
  customMatchers.set(key, matcher);
  return matcher;
}

/** The child's alert settings, or null when nothing can alert (keylogging off, nothing on). */
export async function loadChildAlertSettings(
  db: Db,
  childId: string,
): Promise<ChildAlertSettings | null> {
  const child = await db
    .selectFrom('children')
    .select(['keylogging_enabled', 'alert_categories', 'alert_words'])
    .where('id', '=', childId)
    .executeTakeFirst();
  if (!child || !fromDbBool(child.keylogging_enabled)) return null;
  const categories = storedAlertCategories(child.alert_categories);
  const custom = cachedCustomMatcher(storedAlertWords(child.alert_words));
  if (categories.length === 0 && !custom) return null;
  return custom ? { categories, custom } : { categories };
}

/**
 * Issue 31: matching runs on the request thread, so a batch gives the event loop back after about
 * this many typed characters: no batch holds other families' requests for more than a few
 * milliseconds, whatever it holds (the characters a device may send are budgeted too:
 * RATE_LIMITS.keystrokeCharactersPerDevice).
 */
export const ALERT_MATCH_SLICE_CHARACTERS = 10_000;

/** The alert of each line (null where none), in order. */
export async function alertsOfLines(
  lines: readonly string[],
  settings: ChildAlertSettings | null,
): Promise<(LineAlert | null)[]> {
  if (!settings) return lines.map(() => null);
  const alerts: (LineAlert | null)[] = [];
  let sinceYield = 0;
  for (const line of lines) {
    if (sinceYield >= ALERT_MATCH_SLICE_CHARACTERS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sinceYield = 0;
    }
    alerts.push(alertForLine(line, settings));
    sinceYield += line.length;
  }
  return alerts;
}
