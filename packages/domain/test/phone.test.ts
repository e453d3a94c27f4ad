import { describe, expect, test } from 'vitest';
import { formatPhone, formatPhoneForDisplay, isValidPhone, normalisePhone } from '../src/phone.ts';

describe('normalisePhone', () => {
  test.each<[string, string | null]>([
    ['4155552671', '+14155552671'],
    ['(415) 555-2671', '+14155552671'],
    ['415.555.2671', '+14155552671'],
    ['+1 415 555 2671', '+14155552671'],
    ['+4155552671', '+4155552671'], // ten digits with a plus stay international
    ['1-415-555-2671', '+14155552671'],
    ['+44 20 7183 8750', '+442071838750'],
    ['1234567', '+1234567'],
    ['123456', null],
    ['1234567890123456', null],
    ['123456789012345', '+123456789012345'],
    ['', null],
    ['call me', null],
  ])('%j → %j', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });
});

describe('isValidPhone', () => {
  test.each<[string, boolean]>([
    ['+14155552671', true],
    ['+12125551234', true],
    ['+442071838750', true],
    ['+33123456789', true],
    ['+11234567890', false], // US area codes never start with 1
    ['+1234567', false],
    ['+999123456789', false],
    ['4155552671', false],
    ['', false],
  ])('%j → %s', (e164, expected) => {
    expect(isValidPhone(e164)).toBe(expected);
  });
});

describe('formatPhone', () => {
  test.each<[string, string]>([
    ['+14155552671', '(415) 555-2671'],
    ['+15555550123', '(555) 555-0123'],
    ['+442071838750', '+442071838750'],
    ['+1415555267', '+1415555267'],
  ])('%j → %j', (e164, expected) => {
    expect(formatPhone(e164)).toBe(expected);
  });
});

describe('formatPhoneForDisplay', () => {
  test.each<[string, string]>([
    ['+14155552671', '(415) 555-2671'],
    ['+15555550123', '(555) 555-0123'],
    ['+442071838750', '+442071838750'],
    ['+33123456789', '+33123456789'],
    ['+1415555267', '+1415555267'], // nine digits after +1: not a US number
    ['+141555526712', '+141555526712'],
    ['4155552671', '4155552671'], // not E.164: shown as stored
    ['', ''],
  ])('%j → %j', (stored, expected) => {
    expect(formatPhoneForDisplay(stored)).toBe(expected);
  });
});
