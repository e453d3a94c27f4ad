import { describe, expect, test } from 'vitest';
import { displayableChildText } from '../src/child-text.ts';

describe('displayableChildText', () => {
  test.each<[string, string, string]>([
    ['plain text is unchanged', 'for my homework', 'for my homework'],
    ['a right-to-left override is dropped', 'photo\u202Egnp.exe', 'photognp.exe'],
    ['a left-to-right override is dropped', '\u202Dabc\u202C', 'abc'],
    ['embeddings and their end are dropped', '\u202Aa\u202Bb\u202C', 'ab'],
    ['isolates are dropped', '\u2066x\u2067y\u2068z\u2069', 'xyz'],
    ['invisible direction marks are dropped', 'a\u200Eb\u200Fc\u061Cd', 'abcd'],
    ['Hebrew stays as typed', 'שלום עולם', 'שלום עולם'],
    ['Arabic stays as typed', 'مرحبا بالعالم', 'مرحبا بالعالم'],
    ['zero-width joiners in emoji stay', '👨‍👩‍👧', '👨‍👩‍👧'],
    ['an unbroken long word is kept whole', 'a'.repeat(2000), 'a'.repeat(2000)],
    ['empty stays empty', '', ''],
  ])('%s', (_what, text, shown) => {
    expect(displayableChildText(text)).toBe(shown);
  });
});
