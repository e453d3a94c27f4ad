import {
  ALERT_CATEGORIES,
  type AlertCategory,
  BUILT_IN_ALERT_CATEGORIES,
  type BuiltInAlertCategory,
  CUSTOM_ALERT_CATEGORY,
} from './alert-categories.ts';
import {
  type AlertMatcher,
  type AlertWordEntry,
  compileAlertMatcher,
  normaliseForAlerts,
} from './alert-matcher.ts';
import bullying from './alert-words/bullying.json' with { type: 'json' };
import drugs from './alert-words/drugs.json' with { type: 'json' };
import selfHarm from './alert-words/self-harm.json' with { type: 'json' };
import sexualContent from './alert-words/sexual-content.json' with { type: 'json' };
import violence from './alert-words/violence.json' with { type: 'json' };

// Issue 24: which alert a typed line raises for a child (docs/activity-alerts.md). Server only: the
// dashboard never loads the word lists.

interface WordList {
  category: string;
  about: string;
  words: string[];
}

export const BUILT_IN_ALERT_LISTS: Readonly<Record<BuiltInAlertCategory, WordList>> = {
  selfHarm,
  violence,
  bullying,
  sexualContent,
  drugs,
};

export function builtInAlertEntries(): AlertWordEntry<AlertCategory>[] {
  return BUILT_IN_ALERT_CATEGORIES.flatMap((category) =>
    BUILT_IN_ALERT_LISTS[category].words.map((word) => ({ category, word })),
  );
}

let builtIn: AlertMatcher<AlertCategory> | undefined;

/** Every built-in list in one automaton, compiled on first use. */
export function builtInAlertMatcher(): AlertMatcher<AlertCategory> {
  builtIn ??= compileAlertMatcher(builtInAlertEntries());
  return builtIn;
}

export interface LineAlert {
  category: AlertCategory;
  /** The listed words and phrases of that category found in the line. */
  words: string[];
}

export interface ChildAlertSettings {
  /** Built-in categories the parent turned on for the child. */
  categories: readonly string[];
  /** The parent's own matcher for the child (compileAlertMatcher of its words), if any. */
  custom?: AlertMatcher<AlertCategory>;
}

export function customAlertMatcher(words: readonly string[]): AlertMatcher<AlertCategory> {
  return compileAlertMatcher(words.map((word) => ({ category: CUSTOM_ALERT_CATEGORY, word })));
}

/**
 * The alert of one line for a child, or null: of the categories found and turned on, the first in
 * ALERT_CATEGORIES order (self-harm before violence, … the parent's own words last), with its words.
 */
export function alertForLine(
  line: string,
  settings: ChildAlertSettings,
  matcher: AlertMatcher<AlertCategory> = builtInAlertMatcher(),
): LineAlert | null {
  const normalised = normaliseForAlerts(line);
  const enabled = settings.categories;
  const found = [
    ...(enabled.length > 0 ? matcher.matchNormalised(normalised) : []).filter((hit) =>
      enabled.includes(hit.category),
    ),
    ...(settings.custom ? settings.custom.matchNormalised(normalised) : []),
  ];
  if (found.length === 0) return null;
  for (const category of ALERT_CATEGORIES) {
    const words = found.filter((hit) => hit.category === category).map((hit) => hit.word);
    if (words.length > 0) return { category, words: [...new Set(words)] };
  }
  return null;
}
