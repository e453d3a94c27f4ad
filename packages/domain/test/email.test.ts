import { describe, expect, test } from 'vitest';
import {
  isValidEmailForServer,
  looksLikeEmail,
  normaliseEmail,
  splitsIntoTwoOnAt,
} from '../src/email.ts';

describe('isValidEmailForServer', () => {
  test.each<[string, boolean]>([
    ['parent@example.com', true],
    ['a@b.co', true],
    ['a@b.c', false], // domain must be longer than 3 characters
    ['a@bcde', false], // domain needs a dot
    ['@example.com', false],
    ['parent@@example.com', false],
    ['pa@rent@example.com', false],
    ['parent.example.com', false],
    ['parent@', false],
  ])('%j → %s', (email, expected) => {
    expect(isValidEmailForServer(email)).toBe(expected);
  });
});

describe('looksLikeEmail', () => {
  test.each<[string, boolean]>([
    ['parent@example.com', true],
    ['a@b', true],
    [' a@b ', true],
    ['a@', false],
    ['@b', false],
    ['ab', false],
    ['a b@c', false],
    ['a@b@c', false],
  ])('%j → %s', (s, expected) => {
    expect(looksLikeEmail(s)).toBe(expected);
  });
});

describe('splitsIntoTwoOnAt', () => {
  test.each<[string, boolean]>([
    ['parent@example.com', true],
    ['@', true],
    ['parent', false],
    ['a@b@c', false],
  ])('%j → %s', (s, expected) => {
    expect(splitsIntoTwoOnAt(s)).toBe(expected);
  });
});

describe('normaliseEmail', () => {
  test.each<[string, string]>([
    ['  Parent@Example.COM ', 'parent@example.com'],
    ['a@b.co', 'a@b.co'],
  ])('%j → %j', (email, expected) => {
    expect(normaliseEmail(email)).toBe(expected);
  });
});
