import { describe, expect, test } from 'vitest';
import {
  alertCategoryLabel,
  cleanCustomAlertWords,
  customAlertWordsProblem,
} from '../src/alert-categories.ts';
import { compileAlertMatcher, normaliseForAlerts } from '../src/alert-matcher.ts';
import {
  alertForLine,
  BUILT_IN_ALERT_LISTS,
  builtInAlertEntries,
  customAlertMatcher,
} from '../src/alerts.ts';

const words = [
  'kill',
  'ass',
  'cunt',
  'rapist',
  'die',
  'kill myself',
  'want to die',
  'porn*',
  'hate',
  'sex',
  "can't breathe",
  'xxx',
];
const matcher = compileAlertMatcher(words.map((word) => ({ category: 'test', word })));
const found = (text: string) => matcher.match(text).map((hit) => hit.word);

describe('normaliseForAlerts', () => {
  const show = (text: string) => {
    const { codes, runs } = normaliseForAlerts(text);
    return codes
      .map((code) => String.fromCodePoint(code))
      .map((ch, i) => (runs[i] === 1 || ch === ' ' ? ch : `${ch}${runs[i]}`))
      .join('');
  };
  test.each([
    ['Kill', ' kil2 '],
    ['DIIIIE!!', ' di4e '],
    ['Élève à l’école', ' eleve a lecole '],
    ['k1ll', ' kil2 '],
    ['h@te', ' hate '],
    ['it is 2024, call 555', ' it is 2024 cal2 53 '],
    ["can't", ' cant '],
    ['kill...   myself', ' kil2 myself '],
    ['$100', ' 102 '],
  ])('%j → %j', (text, expected) => {
    expect(show(text)).toBe(expected);
  });
});

describe('compileAlertMatcher: what matches', () => {
  test.each<[string, string[]]>([
    ['I will kill', ['kill']],
    ['KILL', ['kill']],
    ['k1ll', ['kill']],
    ['k!ll them', ['kill']],
    ['kiiiilllll', ['kill']],
    ['i want to diiiie', ['die', 'want to die']],
    ['I want   to die.', ['die', 'want to die']],
    ['wánt tö díe', ['die', 'want to die']],
    ['I want to kill myself', ['kill', 'kill myself']],
    ['i h@te you', ['hate']],
    ['h4te', ['hate']],
    ['5ex', ['sex']],
    ['pornhub', ['porn*']],
    ['PORN', ['porn*']],
    ['xxx', ['xxx']],
    ['xxxxxx', ['xxx']],
    ['i cant breathe', ["can't breathe"]],
    ['I can’t breathe', ["can't breathe"]],
    ['what an ass!', ['ass']],
    ['"kill"', ['kill']],
    ['kill😀', ['kill']],
    ['😀kill', ['kill']],
    ['\ud800kill', ['kill']],
  ])('%j finds %j', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });
});

describe('compileAlertMatcher: false alerts that must not match', () => {
  test.each([
    'class',
    'assassin',
    'I passed the class',
    'Scunthorpe United',
    'skill',
    'skills and killer apps',
    'killed it at the show',
    'therapist',
    'the rapists', // the plural is a different word: a list names each form it wants
    'diet',
    'indie',
    'studied',
    'sussex',
    'essex',
    'hated', // likewise
    'kil',
    'ki ll',
    'xx',
    'good', // repeated letters written twice are spelling, not stretching
    'diee',
    'assumption',
    'whatever',
  ])('%j', (text) => {
    expect(found(text)).toEqual([]);
  });
});

describe('compileAlertMatcher: lines of any length', () => {
  test('each word is reported once, in list order', () => {
    expect(found('die die DIE kill die')).toEqual(['kill', 'die']);
  });
  test('a long line', () => {
    const line = `${'skill class '.repeat(2000)}want to die`;
    expect(found(line)).toEqual(['die', 'want to die']);
  });
  test('an empty or symbol-only word is ignored', () => {
    const m = compileAlertMatcher([
      { category: 'c', word: '  ' },
      { category: 'c', word: '!!!' },
      { category: 'c', word: 'ok' },
    ]);
    expect(m.size).toBe(1);
    expect(m.match('ok then').map((hit) => hit.word)).toEqual(['ok']);
  });
  test('overlapping words', () => {
    const m = compileAlertMatcher(
      ['she', 'he', 'hers', 'his', 'he is'].map((word) => ({ category: 'c', word })),
    );
    expect(m.match('ushers he is his').map((hit) => hit.word)).toEqual(['he', 'his', 'he is']);
  });
});

describe('alertForLine with the built-in lists', () => {
  const selfHarmOnly = { categories: ['selfHarm'] };
  const all = { categories: Object.keys(BUILT_IN_ALERT_LISTS) };
  test.each<[string, { categories: string[] }, { category: string; words: string[] } | null]>([
    ['i want to k1ll myself', selfHarmOnly, { category: 'selfHarm', words: ['kill myself'] }],
    ['I wanna diiiie', selfHarmOnly, { category: 'selfHarm', words: ['wanna die'] }],
    [
      'i dont want to live anymore',
      selfHarmOnly,
      { category: 'selfHarm', words: ['dont want to live'] },
    ],
    ['I don’t want to live', selfHarmOnly, { category: 'selfHarm', words: ['dont want to live'] }],
    ['send nudes', selfHarmOnly, null],
    ['send nudes', all, { category: 'sexualContent', words: ['nudes', 'send nudes'] }],
    // several categories: the first in order, with its words
    [
      'you loser, i will kill you',
      all,
      { category: 'violence', words: ['kill you', 'i will kill'] },
    ],
    ['kys', all, { category: 'bullying', words: ['kys'] }],
    ['my therapist says the class was great', all, null],
    ['got a sick kill in fortnite, skill issue', all, null],
    ['Scunthorpe', all, null],
    ['', all, null],
    ['wanna die', { categories: [] }, null],
  ])('%j (%j) → %j', (line, settings, expected) => {
    expect(alertForLine(line, settings)).toEqual(expected);
  });

  test("the parent's own words come last and are on whenever listed", () => {
    const custom = customAlertMatcher(['Jordan', 'secret club']);
    expect(alertForLine('meet jordan at the secret club', { categories: [], custom })).toEqual({
      category: 'custom',
      words: ['Jordan', 'secret club'],
    });
    expect(alertForLine('jordan: i wanna die', { categories: ['selfHarm'], custom })).toEqual({
      category: 'selfHarm',
      words: ['wanna die'],
    });
  });

  test('every built-in word normalises to something and none repeats within its list', () => {
    for (const [category, list] of Object.entries(BUILT_IN_ALERT_LISTS)) {
      expect(list.category).toBe(category);
      const keys = list.words.map((word) => normaliseForAlerts(word).codes.join(','));
      expect(new Set(keys).size, category).toBe(keys.length);
      expect(list.words.length, category).toBeGreaterThanOrEqual(20);
      expect(list.words.length, category).toBeLessThanOrEqual(100);
    }
    expect(builtInAlertEntries().length).toBeGreaterThan(150);
  });
});

describe('custom alert words', () => {
  test.each<[string[], string[]]>([
    [
      ['  Jordan ', 'jordan', '', 'secret   club'],
      ['Jordan', 'secret club'],
    ],
    [[], []],
  ])('%j → %j', (input, expected) => {
    expect(cleanCustomAlertWords(input)).toEqual(expected);
  });
  test('limits', () => {
    expect(customAlertWordsProblem(['a'.repeat(101)])).toMatch(/100 characters/);
    expect(customAlertWordsProblem(Array.from({ length: 201 }, (_, i) => `w${i}`))).toMatch(/200/);
    expect(customAlertWordsProblem(['fine'])).toBeNull();
  });
  test('labels', () => {
    expect(alertCategoryLabel('selfHarm')).toBe('Self-harm');
    expect(alertCategoryLabel('custom')).toBe('Your words');
    expect(alertCategoryLabel('other')).toBe('other');
  });
});

describe('evasions of a self-harm phrase (issue 31)', () => {
  const settings = { categories: ['selfHarm'] };
  // 15 ways to write "kill myself" that a child may type to get past a word filter; before issue
  // 31 the six with an invisible character or a Cyrillic letter were missed
  test.each<[string, string]>([
    ['plain', 'i want to kill myself'],
    ['zero-width space inside a word', 'i want to k\u200Bill myself'],
    ['soft hyphen inside a word', 'i want to ki\u00ADll myself'],
    ['zero-width joiner', 'i want to kill my\u200Dself'],
    ['byte-order mark', 'i want to k\uFEFFill myself'],
    ['Cyrillic і', 'i want to k\u0456ll myself'],
    ['Cyrillic е', 'i want to kill mys\u0435lf'],
    ['fullwidth letters', 'i want to ｋｉｌｌ myself'],
    ['mathematical bold', 'i want to 𝐤𝐢𝐥𝐥 myself'],
    ['no-break space', 'i want to kill\u00A0myself'],
    ['a symbol for a letter', 'i want to k!ll myself'],
    ['stretched letters', 'i want to kiiill myself'],
    ['word joiner between the words', 'i want to kill\u2060myself'],
    ['combining grapheme joiner', 'i want to ki\u034Fll myself'],
    ['left-to-right mark between the words', 'i want to kill\u200Emyself'],
  ])('%s', (_name, line) => {
    expect(alertForLine(line, settings)).toEqual({ category: 'selfHarm', words: ['kill myself'] });
  });

  test('an invisible character does not join two readings into a false phrase', () => {
    // the line is read twice (without the invisible characters, then with each as a space); no
    // phrase is found across the seam between the readings
    const matcher = compileAlertMatcher([{ category: 'x', word: 'end start' }]);
    expect(matcher.match('start of the line\u200B and its end')).toEqual([]);
  });

  test('Cyrillic and Greek words stay themselves; only a word with Latin letters is read as Latin', () => {
    const matcher = compileAlertMatcher([{ category: 'x', word: 'cok' }]);
    expect(matcher.match('\u0441\u043e\u043a')).toEqual([]); // сок: juice, all Cyrillic
    expect(matcher.match('c\u043e\u043a')).toEqual([{ category: 'x', word: 'cok' }]);
  });

  test('a character that folds to many is a separator: the normalised text stays within 3× the line', () => {
    const line = '\uFDFA'.repeat(10_000);
    expect(normaliseForAlerts(line).codes.length).toBeLessThanOrEqual(3 * line.length + 2);
    expect(normaliseForAlerts('\uFB03').codes).toEqual(normaliseForAlerts('ffi').codes);
    expect(normaliseForAlerts('\u00E9l\u00E8ve').codes).toEqual(normaliseForAlerts('eleve').codes);
  });
});
