// Issue 20: long lists (children, a keychain's keys) get a search box. A query matches when every
// word of it is found in one of the texts, ignoring case and accents.

/** Lists at least this long show a search box. */
export const SEARCH_FROM_ITEMS = 8;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function matchesSearch(texts: readonly string[], query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = texts.map(fold).join('\n');
  return words.every((word) => haystack.includes(word));
}
