// Issue 24: the kinds of typed text a parent can be alerted about, per child. This file holds only
// names and wording (the dashboard imports it); the word lists and the matcher are in alerts.ts and
// alert-words/*.json, which only the server loads.

/** The built-in lists, in the order an alert names them when a line matches several. */
export const BUILT_IN_ALERT_CATEGORIES = [
  'selfHarm',
  'violence',
  'bullying',
  'sexualContent',
  'drugs',
] as const;
export type BuiltInAlertCategory = (typeof BUILT_IN_ALERT_CATEGORIES)[number];

/** The parent's own words and phrases of a child: on whenever the child has any. */
export const CUSTOM_ALERT_CATEGORY = 'custom';
export type AlertCategory = BuiltInAlertCategory | typeof CUSTOM_ALERT_CATEGORY;
export const ALERT_CATEGORIES: readonly AlertCategory[] = [
  ...BUILT_IN_ALERT_CATEGORIES,
  CUSTOM_ALERT_CATEGORY,
];

/** A new child, and every child that had none before alerts existed: self-harm only. */
export const DEFAULT_ALERT_CATEGORIES: readonly BuiltInAlertCategory[] = ['selfHarm'];

/** At most this many own words per child, each at most MAX_ALERT_WORD_LENGTH characters. */
export const MAX_CUSTOM_ALERT_WORDS = 200;
export const MAX_ALERT_WORD_LENGTH = 100;

const LABELS: Record<AlertCategory, string> = {
  selfHarm: 'Self-harm',
  violence: 'Violence',
  bullying: 'Bullying',
  sexualContent: 'Sexual content',
  drugs: 'Drugs',
  custom: 'Your words',
};

const HINTS: Record<AlertCategory, string> = {
  selfHarm: 'Talk of suicide, self-injury or wanting to die.',
  violence: 'Threats to hurt or kill, weapons at school.',
  bullying: 'Insults and words that tell someone to hurt themselves.',
  sexualContent: 'Explicit words, requests for pictures, secrets with strangers.',
  drugs: 'Drug names and buying or taking drugs.',
  custom: 'Words and phrases you choose, one per line.',
};

export function isAlertCategory(value: string): value is AlertCategory {
  return (ALERT_CATEGORIES as readonly string[]).includes(value);
}

/** The category as the parent reads it ('Self-harm'); an unknown name is shown as it is. */
export function alertCategoryLabel(category: string): string {
  return isAlertCategory(category) ? LABELS[category] : category;
}

export function alertCategoryHint(category: AlertCategory): string {
  return HINTS[category];
}

/**
 * The parent's own words as stored: trimmed, blank lines dropped, repeats (ignoring case) dropped,
 * in the order written.
 */
export function cleanCustomAlertWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  const cleaned: string[] = [];
  for (const raw of words) {
    const word = raw.trim().replace(/\s+/g, ' ');
    const key = word.toLowerCase();
    if (word === '' || seen.has(key)) continue;
    seen.add(key);
    cleaned.push(word);
  }
  return cleaned;
}

/** null when the own words may be stored, else the parent's message. */
export function customAlertWordsProblem(words: readonly string[]): string | null {
  if (words.length > MAX_CUSTOM_ALERT_WORDS) {
    return `At most ${MAX_CUSTOM_ALERT_WORDS} words and phrases of your own.`;
  }
  const long = words.find((word) => word.length > MAX_ALERT_WORD_LENGTH);
  return long === undefined
    ? null
    : `A word or phrase can have at most ${MAX_ALERT_WORD_LENGTH} characters.`;
}

/** "self-harm, bullying": the categories of a notification, in lower case, each once. */
export function alertCategoriesInWords(categories: readonly string[]): string {
  return [...new Set(categories)]
    .map((category) =>
      category === CUSTOM_ALERT_CATEGORY
        ? 'your words'
        : alertCategoryLabel(category).toLowerCase(),
    )
    .join(', ');
}
