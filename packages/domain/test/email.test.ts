import { describe, expect, test } from 'vitest';
import {
  INVALID_EMAIL_MESSAGE,
  isAcceptableEmail,
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

describe('isAcceptableEmail (server and dashboard alike)', () => {
  const local64 = 'a'.repeat(64);
  test.each<[string, boolean]>([
    ['parent@example.com', true],
    ['  Parent@Example.COM ', true], // trimmed and lowercased first, as the server stores it
    ['a@b.co', true],
    ['x@y', false], // looks like an email, but the server refuses it
    ['x@y.z', false], // domain of 3 characters
    ['a@bcde', false],
    ['a b@example.com', true], // the server rule does not look at spaces inside
    ['', false],
    ['   ', false],
    ['@example.com', false],
    ['a@@example.com', false],
    [`${local64}@${'b'.repeat(185)}.com`, true], // 254 characters
    [`${local64}@${'b'.repeat(186)}.com`, false], // 255 characters
  ])('%j → %s', (email, expected) => {
    expect(isAcceptableEmail(email)).toBe(expected);
  });

  test('the message is the server’s', () => {
    expect(INVALID_EMAIL_MESSAGE).toBe('Please enter a valid email address.');
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
