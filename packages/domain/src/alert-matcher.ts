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

const SPACE = 32;
/** Between the two readings of a line with invisible characters: a boundary no word spans. */
const SEAM = 0;
const COMBINING_MARKS = /\p{M}+/gu;
const LETTER = /^\p{L}$/u;
const NON_ASCII = /[^ -~\t\n\r]/;
const INVISIBLE = /^\p{Default_Ignorable_Code_Point}$/u;

// Issue 31: each character is folded on its own (NFKD, marks dropped, lower case; the same as the
// whole text's NFKD for matching, since the marks between characters are dropped anyway), with its
// result cached. A character folding to more than MAX_FOLDED characters (U+FDFA is 18) is a
// separator: no listed word is written with one, and the normalised text stays within three times
// the typed one, so no line costs more than a few times a plain line of its length. Invisible
// characters (zero-width space and joiners, soft hyphen, word joiner, byte-order mark, direction
// marks: Unicode's default-ignorable code points) are marked, and the line is read twice: once
// without them (so "k\u200Bill" is "kill") and once with each as a space (so "kill\u2060myself"
// still reads as two words).
const MAX_FOLDED = 3;
const INVISIBLE_MARK = '\u0000';
const FOLD_CACHE_SIZE = 100_000;
const foldCache = new Map<number, string>();

function foldCodePoint(code: number): string {
  let folded = foldCache.get(code);
  if (folded !== undefined) return folded;
  const ch = String.fromCodePoint(code);
  if (INVISIBLE.test(ch)) folded = INVISIBLE_MARK;
  else {
    folded = ch.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
    if (folded.length > MAX_FOLDED) folded = ' ';
  }
  if (foldCache.size < FOLD_CACHE_SIZE) foldCache.set(code, folded);
  return folded;
}

// Issue 31: Cyrillic and Greek letters drawn like Latin ones ("kіll" with a Cyrillic і). They are
// read as the Latin letter only inside a word that also has Latin letters (normaliseOnce), so
// Russian or Greek words are left as they are.
const HOMOGLYPHS = new Map<number, number>(
  [
    ['а', 'a'],
    ['в', 'b'],
    ['е', 'e'],
    ['ё', 'e'],
    ['к', 'k'],
    ['м', 'm'],
    ['н', 'h'],
    ['о', 'o'],
    ['р', 'p'],
    ['с', 'c'],
    ['т', 't'],
    ['у', 'y'],
    ['х', 'x'],
    ['і', 'i'],
    ['ї', 'i'],
    ['ј', 'j'],
    ['ѕ', 's'],
    ['ԁ', 'd'],
    ['һ', 'h'],
    ['ӏ', 'l'],
    ['ԛ', 'q'],
    ['ԝ', 'w'],
    ['α', 'a'],
    ['β', 'b'],
    ['ε', 'e'],
    ['ι', 'i'],
    ['κ', 'k'],
    ['ν', 'v'],
    ['ο', 'o'],
    ['ρ', 'p'],
    ['τ', 't'],
    ['υ', 'u'],
    ['χ', 'x'],
  ].map(([from, to]) => [(from as string).charCodeAt(0), (to as string).charCodeAt(0)]),
);

/** The text folded character by character (see foldCodePoint). */
function foldText(text: string): string {
  const parts: string[] = [];
  let asciiFrom = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 128 && unit !== 0) continue;
    if (i > asciiFrom) parts.push(text.slice(asciiFrom, i));
    const code = text.codePointAt(i) as number;
    if (code > 0xffff) i += 1;
    parts.push(code === 0 ? ' ' : foldCodePoint(code));
    asciiFrom = i + 1;
  }
  if (asciiFrom < text.length) parts.push(text.slice(asciiFrom));
  return parts.join('').toLowerCase();
}

// Kinds of characters, by code point: ASCII from a table, the rest from \p{L} (cached).
const OTHER = 0;
const LETTER_KIND = 1;
const DIGIT = 2;
const SYMBOL = 3;
const APOSTROPHE = 4;

const ASCII_KINDS = new Uint8Array(128);
const ASCII_LEET = new Int32Array(128);
for (let code = 0; code < 128; code += 1) {
  const ch = String.fromCharCode(code);
  if (code >= 97 && code <= 122) ASCII_KINDS[code] = LETTER_KIND;
  else if (code >= 48 && code <= 57) ASCII_KINDS[code] = DIGIT;
  else if (ch === "'" || ch === '`') ASCII_KINDS[code] = APOSTROPHE;
  else if (ch in LEET) ASCII_KINDS[code] = SYMBOL;
  const leet = LEET[ch];
  ASCII_LEET[code] = leet === undefined ? code : leet.charCodeAt(0);
}

const kindCache = new Map<number, number>();

function kindOf(code: number): number {
  if (code < 128) return ASCII_KINDS[code] as number;
  let kind = kindCache.get(code);
  if (kind === undefined) {
    kind =
      code === 0x2019 || code === 0x2bc
        ? APOSTROPHE
        : LETTER.test(String.fromCodePoint(code))
          ? LETTER_KIND
          : OTHER;
    if (kindCache.size < 10_000) kindCache.set(code, kind);
  }
  return kind;
}

let scratchCodes = new Int32Array(256);
let scratchKinds = new Uint8Array(256);

const isAlnum = (kind: number | undefined) => kind === LETTER_KIND || kind === DIGIT;

/** Normalised text: one entry per run of a repeated character (a code point), with its length. */
export interface NormalisedText {
  /** Begins and ends with a space, so a boundary is always there to look at. */
  codes: number[];
  runs: number[];
}

/**
 * The normalisation described above, in two passes over the text. A text with invisible
 * characters is read twice (without them, then with each as a space), the readings joined by a
 * boundary no word spans.
 */
export function normaliseForAlerts(text: string): NormalisedText {
  if (!NON_ASCII.test(text)) return normaliseOnce(text.toLowerCase());
  const folded = foldText(text);
  if (!folded.includes(INVISIBLE_MARK)) return normaliseOnce(folded);
  const without = normaliseOnce(folded.replaceAll(INVISIBLE_MARK, ''));
  const spaced = normaliseOnce(folded.replaceAll(INVISIBLE_MARK, ' '));
  return {
    codes: [...without.codes, SEAM, ...spaced.codes],
    runs: [...without.runs, 1, ...spaced.runs],
  };
}

function normaliseOnce(lower: string): NormalisedText {
  // scratch space reused line after line (matching is synchronous)
  if (scratchCodes.length < lower.length) {
    scratchCodes = new Int32Array(lower.length * 2);
    scratchKinds = new Uint8Array(lower.length * 2);
  }
  const cps = scratchCodes;
  const kinds = scratchKinds;
  let n = 0;
  for (let i = 0; i < lower.length; i += 1) {
    let code = lower.charCodeAt(i);
    const low = code >= 0xd800 && code <= 0xdbff ? lower.charCodeAt(i + 1) : 0;
    if (low >= 0xdc00 && low <= 0xdfff) {
      code = lower.codePointAt(i) as number;
      i += 1;
    }
    cps[n] = code;
    kinds[n] = code < 128 ? (ASCII_KINDS[code] as number) : kindOf(code);
    n += 1;
  }
  const codes: number[] = [SPACE];
  const runs: number[] = [1];
  let last = 0;
  let i = 0;
  while (i < n) {
    let end = i;
    let hasLetter = false;
    let hasLatin = false;
    while (end < n && kinds[end] !== OTHER) {
      if (kinds[end] === LETTER_KIND) {
        hasLetter = true;
        const letter = cps[end] as number;
        if (letter >= 97 && letter <= 122) hasLatin = true;
      }
      end += 1;
    }
    if (end === i) end = i + 1; // one separator
    for (let k = i; k < end; k += 1) {
      let code = cps[k] as number;
      const kind = kinds[k];
      // a Cyrillic or Greek letter drawn like a Latin one, in a word with Latin letters
      if (hasLatin && code >= 0x3b1) code = HOMOGLYPHS.get(code) ?? code;
      if (kind === OTHER) code = SPACE;
      else if (kind === DIGIT) {
        if (hasLetter) code = ASCII_LEET[code] as number;
      } else if (kind !== LETTER_KIND) {
        // a symbol or an apostrophe between two letters or digits: "k!ll", "can't"; not
        // "die!!" or "'quoted'"
        const inner = k > i && k < end - 1 && isAlnum(kinds[k - 1]) && isAlnum(kinds[k + 1]);
        if (kind === SYMBOL) code = hasLetter && inner ? (ASCII_LEET[code] as number) : SPACE;
        else if (inner) continue;
        else code = SPACE;
      }
      if (codes[last] === code) runs[last] = (runs[last] as number) + 1;
      else {
        codes.push(code);
        runs.push(1);
        last += 1;
      }
    }
    i = end;
  }
  if (codes[last] === SPACE) runs[last] = (runs[last] as number) + 1;
  else {
    codes.push(SPACE);
    runs.push(1);
  }
  return { codes, runs };
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

/** In normalised text only spaces, digits (of numbers) and letters are left. */
const isBoundary = (code: number | undefined) =>
  code === undefined || code === SPACE || (code >= 48 && code <= 57);

/** A letter's count in the text agrees with the word's: the same, or stretched to 3 or more. */
const runAgrees = (inText: number, inWord: number) => inText === inWord || inText >= 3;

export interface AlertMatcher<Category extends string = string> {
  /** Every listed word or phrase found in the text, each once, in list order. */
  match(text: string): AlertWordEntry<Category>[];
  /** The same, on text already normalised (several matchers, one normalisation). */
  matchNormalised(text: NormalisedText): AlertWordEntry<Category>[];
  readonly size: number;
}

const NO_OUTPUTS: readonly number[] = [];

// The common characters of normalised text (a–z, 0–9, space) have a slot each: their transitions
// are a dense table with the failure links already followed, one array read per character.
const SLOT_COUNT = 37;
const SLOTS = new Int8Array(128).fill(-1);
for (let code = 97; code <= 122; code += 1) SLOTS[code] = code - 97;
for (let code = 48; code <= 57; code += 1) SLOTS[code] = 26 + code - 48;
SLOTS[SPACE] = 36;
const SLOT_CODES = Array.from({ length: SLOT_COUNT }, (_, slot) =>
  slot < 26 ? 97 + slot : slot < 36 ? 48 + slot - 26 : SPACE,
);

/** Builds the automaton once; matching a line is then linear in its length. */
export function compileAlertMatcher<Category extends string>(
  entries: readonly AlertWordEntry<Category>[],
): AlertMatcher<Category> {
  const next: Map<number, number>[] = [new Map()];
  const outputs: (readonly number[])[] = [NO_OUTPUTS];
  const patterns: Pattern<Category>[] = [];

  for (const entry of entries) {
    const raw = entry.word.trim();
    const isPrefix = raw.endsWith('*');
    const normalised = normaliseForAlerts(isPrefix ? raw.slice(0, -1) : raw);
    // without the padding spaces
    const codes = normalised.codes.slice(1, -1);
    const runs = normalised.runs.slice(1, -1);
    if (!codes.some((code) => code !== SPACE)) continue;
    let node = 0;
    for (const code of codes) {
      const edges = next[node] as Map<number, number>;
      let child = edges.get(code);
      if (child === undefined) {
        child = next.length;
        edges.set(code, child);
        next.push(new Map());
        outputs.push(NO_OUTPUTS);
      }
      node = child;
    }
    outputs[node] = [...(outputs[node] as number[]), patterns.length];
    patterns.push({ entry, runs, isPrefix });
  }

  // failure links, breadth first; each node's outputs gain those of its failure node
  const fail = new Int32Array(next.length);
  const queue: number[] = [...(next[0] as Map<number, number>).values()];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] as number;
    for (const [code, child] of next[node] as Map<number, number>) {
      let f = fail[node] as number;
      while (f !== 0 && !(next[f] as Map<number, number>).has(code)) f = fail[f] as number;
      const target = (next[f] as Map<number, number>).get(code);
      fail[child] = target !== undefined && target !== child ? target : 0;
      const inherited = outputs[fail[child] as number] as readonly number[];
      if (inherited.length > 0) outputs[child] = [...(outputs[child] as number[]), ...inherited];
      queue.push(child);
    }
  }
  const dense = new Int32Array(next.length * SLOT_COUNT);
  for (const node of [0, ...queue]) {
    const edges = next[node] as Map<number, number>;
    for (let slot = 0; slot < SLOT_COUNT; slot += 1) {
      const child = edges.get(SLOT_CODES[slot] as number);
      dense[node * SLOT_COUNT + slot] =
        child ?? (node === 0 ? 0 : (dense[(fail[node] as number) * SLOT_COUNT + slot] as number));
    }
  }

  const matchNormalised = ({ codes, runs }: NormalisedText) => {
    let found: Set<number> | undefined;
    let state = 0;
    for (let i = 0; i < codes.length; i += 1) {
      const code = codes[i] as number;
      const slot = code < 128 ? (SLOTS[code] as number) : -1;
      if (slot >= 0) state = dense[state * SLOT_COUNT + slot] as number;
      else {
        let to = (next[state] as Map<number, number>).get(code);
        while (to === undefined && state !== 0) {
          state = fail[state] as number;
          to = (next[state] as Map<number, number>).get(code);
        }
        state = to ?? 0;
      }
      const candidates = outputs[state] as readonly number[];
      for (let c = 0; c < candidates.length; c += 1) {
        const index = candidates[c] as number;
        if (found?.has(index)) continue;
        const pattern = patterns[index] as Pattern<Category>;
        const start = i - pattern.runs.length + 1;
        if (!isBoundary(codes[start - 1])) continue;
        if (!pattern.isPrefix && !isBoundary(codes[i + 1])) continue;
        let agrees = true;
        for (let k = 0; k < pattern.runs.length; k += 1) {
          if (codes[start + k] === SPACE) continue;
          const inWord = pattern.runs[k] as number;
          const inText = runs[start + k] as number;
          // the last letter of a prefix word may go on ("porn*" in "pornnn")
          const isOpenEnd = pattern.isPrefix && k === pattern.runs.length - 1;
          if (!(runAgrees(inText, inWord) || (isOpenEnd && inText >= inWord))) {
            agrees = false;
            break;
          }
        }
        if (agrees) {
          found ??= new Set();
          found.add(index);
        }
      }
    }
    if (!found) return [];
    return [...found]
      .sort((a, b) => a - b)
      .map((index) => (patterns[index] as Pattern<Category>).entry);
  };

  return {
    size: patterns.length,
    matchNormalised,
    match: (text: string) => matchNormalised(normaliseForAlerts(text)),
  };
}
