import { describe, expect, test } from 'vitest';
import { matchesSearch } from '../src/search';

describe('matchesSearch', () => {
  test.each<[string, string[], string, boolean]>([
    ['empty query matches all', ['Emma'], '', true],
    ['blank query matches all', ['Emma'], '   ', true],
    ['case', ['Emma'], 'emm', true],
    ['accents', ['Zoë'], 'zoe', true],
    ['every word, in any text', ['khanacademy.org', 'math homework'], 'khan math', true],
    ['a missing word', ['khanacademy.org'], 'khan video', false],
    ['no match', ['Emma'], 'noah', false],
  ])('%s', (_name, texts, query, expected) => {
    expect(matchesSearch(texts, query)).toBe(expected);
  });
});
