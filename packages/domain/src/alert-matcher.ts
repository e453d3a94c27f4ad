// Issue 24: finding alert words and phrases in typed text, in time linear in the text whatever the
// number of words (docs/activity-alerts.md). Text and words go through the same normalisation:
//   - accents and case are dropped (NFKD, combining marks removed, lower case);
//   - inside a word that has letters, digits and a few symbols stand for letters ("k1ll", "h@te");
//     an apostrophe inside a word is dropped ("can't" = "cant");
//   - anything else (spaces, punctuation, emoji) separates words, however many in a row;
//   - a letter repeated is kept once with its count, so "diiiie" is "die" with 4 i's.
// An Aho-Corasick automaton over the normalised letters finds every candidate in one pass; a
// candidate counts only when it starts and ends on word boundaries (so "skill" is not "kill", and
// "class" is not "ass") and each repeated letter agrees with the word: a letter written once or
// twice must be written as in the word ("good" is not "god", "kil" is not "kill"); three times or
// more stretches any letter ("diiiie" is "die", "kiiilll" is "kill"). A word ending in '*' also
// matches longer words that start with it ("porn*": "porno").

const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
  '+': 't',
};

const SEPARATOR = ' ';
const COMBINING_MARKS = /\p{M}+/gu;
const LETTER = /^\p{L}$/u;

type Kind = 'letter' | 'digit' | 'symbol' | 'apostrophe' | 'other';

const kindCache = new Map<string, Kind>();

function kindOf(ch: string): Kind {
  const code = ch.charCodeAt(0);
  if (ch.length === 1 && code < 128) {
    if (code >= 97 && code <= 122) return 'letter';
    if (code >= 48 && code <= 57) return 'digit';
    if (ch === "'" || ch === '`') return 'apostrophe';
    if (ch in LEET) return 'symbol';
    return 'other';
  }
  let kind = kindCache.get(ch);
  if (kind === undefined) {
    kind = ch === '\u2019' || ch === '\u02bc' ? 'apostrophe' : LETTER.test(ch) ? 'letter' : 'other';
    if (kindCache.size < 10_000) kindCache.set(ch, kind);
  }
  return kind;
}

const isAlnum = (kind: Kind | undefined) => kind === 'letter' || kind === 'digit';

/** Normalised text: one entry per run of a repeated character, with the run's length. */
export interface NormalisedText {
  /** Begins and ends with a separator (' '), so a boundary is always there to look at. */
  chars: string[];
  runs: number[];
}

/** The normalisation described above, in one pass over the text. */
export function normaliseForAlerts(text: string): NormalisedText {
  const plain = Array.from(text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase());
  const chars: string[] = [SEPARATOR];
  const runs: number[] = [1];
  const push = (ch: string) => {
    const last = chars.length - 1;
    if (chars[last] === ch) runs[last] = (runs[last] ?? 0) + 1;
    else {
      chars.push(ch);
      runs.push(1);
    }
  };
  const kinds = plain.map(kindOf);
  let i = 0;
  while (i < plain.length) {
    if (kinds[i] === 'other') {
      push(SEPARATOR);
      i += 1;
      continue;
    }
    let end = i;
    let hasLetter = false;
    while (end < plain.length && kinds[end] !== 'other') {
      if (kinds[end] === 'letter') hasLetter = true;
      end += 1;
    }
    for (let k = i; k < end; k += 1) {
      const ch = plain[k] as string;
      // between two letters or digits: "k!ll", "can't"; not "die!!" or "'quoted'"
      const inner = isAlnum(kinds[k - 1]) && isAlnum(kinds[k + 1]) && k > i && k < end - 1;
      switch (kinds[k]) {
        case 'letter':
          push(ch);
          break;
        case 'digit':
          push(hasLetter ? (LEET[ch] ?? ch) : ch);
          break;
        case 'symbol':
          push(hasLetter && inner ? (LEET[ch] ?? SEPARATOR) : SEPARATOR);
          break;
        case 'apostrophe':
          if (!inner) push(SEPARATOR);
          break;
      }
    }
    i = end;
  }
  push(SEPARATOR);
  return { chars, runs };
}

export interface AlertWordEntry<Category extends string = string> {
  category: Category;
  /** As listed ("kill myself", "porn*"); the alert names this. */
  word: string;
}

interface Pattern<Category extends string> {
  entry: AlertWordEntry<Category>;
  runs: number[];
  isPrefix: boolean;
}

const isBoundary = (ch: string | undefined) => ch === undefined || !LETTER.test(ch);

/** A letter's count in the text agrees with the word's: the same, or stretched to 3 or more. */
const runAgrees = (inText: number, inWord: number) => inText === inWord || inText >= 3;

export interface AlertMatcher<Category extends string = string> {
  /** Every listed word or phrase found in the text, each once, in list order. */
  match(text: string): AlertWordEntry<Category>[];
  readonly size: number;
}

/** Builds the automaton once; matching a line is then linear in its length. */
export function compileAlertMatcher<Category extends string>(
  entries: readonly AlertWordEntry<Category>[],
): AlertMatcher<Category> {
  const next: Map<string, number>[] = [new Map()];
  const outputs: number[][] = [[]];
  const depth: number[] = [0];
  const patterns: Pattern<Category>[] = [];

  for (const entry of entries) {
    const raw = entry.word.trim();
    const isPrefix = raw.endsWith('*');
    const normalised = normaliseForAlerts(isPrefix ? raw.slice(0, -1) : raw);
    // without the padding separators
    const chars = normalised.chars.slice(1, -1);
    const runs = normalised.runs.slice(1, -1);
    if (!chars.some((ch) => ch !== SEPARATOR)) continue;
    let node = 0;
    for (const ch of chars) {
      const edges = next[node] as Map<string, number>;
      let child = edges.get(ch);
      if (child === undefined) {
        child = next.length;
        edges.set(ch, child);
        next.push(new Map());
        outputs.push([]);
        depth.push((depth[node] ?? 0) + 1);
      }
      node = child;
    }
    (outputs[node] as number[]).push(patterns.length);
    patterns.push({ entry, runs, isPrefix });
  }

  // failure links, breadth first; each node's outputs gain those of its failure node
  const fail = new Array<number>(next.length).fill(0);
  const queue: number[] = [...(next[0] as Map<string, number>).values()];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] as number;
    for (const [ch, child] of next[node] as Map<string, number>) {
      let f = fail[node] as number;
      while (f !== 0 && !(next[f] as Map<string, number>).has(ch)) f = fail[f] as number;
      const target = (next[f] as Map<string, number>).get(ch);
      fail[child] = target !== undefined && target !== child ? target : 0;
      (outputs[child] as number[]).push(...(outputs[fail[child] as number] as number[]));
      queue.push(child);
    }
  }

  return {
    size: patterns.length,
    match(text: string) {
      const { chars, runs } = normaliseForAlerts(text);
      const found = new Set<number>();
      let state = 0;
      for (let i = 0; i < chars.length; i += 1) {
        const ch = chars[i] as string;
        while (state !== 0 && !(next[state] as Map<string, number>).has(ch)) {
          state = fail[state] as number;
        }
        state = (next[state] as Map<string, number>).get(ch) ?? 0;
        for (const index of outputs[state] as number[]) {
          if (found.has(index)) continue;
          const pattern = patterns[index] as Pattern<Category>;
          const start = i - pattern.runs.length + 1;
          if (!isBoundary(chars[start - 1])) continue;
          if (!pattern.isPrefix && !isBoundary(chars[i + 1])) continue;
          let agrees = true;
          for (let k = 0; k < pattern.runs.length; k += 1) {
            if (chars[start + k] === SEPARATOR) continue;
            const inWord = pattern.runs[k] as number;
            const inText = runs[start + k] as number;
            // the last letter of a prefix word may go on ("sexxx", "porn*" in "pornn")
            const isOpenEnd = pattern.isPrefix && k === pattern.runs.length - 1;
            if (!(runAgrees(inText, inWord) || (isOpenEnd && inText >= inWord))) {
              agrees = false;
              break;
            }
          }
          if (agrees) found.add(index);
        }
      }
      return [...found]
        .sort((a, b) => a - b)
        .map((index) => (patterns[index] as Pattern<Category>).entry);
    },
  };
}
