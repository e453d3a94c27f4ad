import { describe, expect, test } from 'vitest';
import { type Field, isRecordableField, LineBuffer } from '../src/typed-lines.ts';

describe('isRecordableField: never passwords or card numbers', () => {
  test.each<[string, Field, boolean]>([
    ['a text input', { tagName: 'INPUT', type: 'text', isContentEditable: false }, true],
    ['a search box', { tagName: 'input', type: 'search', isContentEditable: false }, true],
    ['a textarea', { tagName: 'TEXTAREA', isContentEditable: false }, true],
    ['a contenteditable div', { tagName: 'DIV', isContentEditable: true }, true],
    ['a password', { tagName: 'INPUT', type: 'password', isContentEditable: false }, false],
    ['a checkbox', { tagName: 'INPUT', type: 'checkbox', isContentEditable: false }, false],
    [
      'a card number',
      { tagName: 'INPUT', type: 'text', autocomplete: 'cc-number', isContentEditable: false },
      false,
    ],
    [
      'a card code in a section',
      {
        tagName: 'INPUT',
        type: 'text',
        autocomplete: 'section-pay billing CC-CSC',
        isContentEditable: false,
      },
      false,
    ],
    [
      'a one-time code',
      { tagName: 'INPUT', type: 'text', autocomplete: 'one-time-code', isContentEditable: false },
      false,
    ],
    ['a plain div', { tagName: 'DIV', isContentEditable: false }, false],
  ])('%s → %s', (_name, field, expected) => {
    expect(isRecordableField(field)).toBe(expected);
  });
});

describe('LineBuffer', () => {
  const typeKeys = (buffer: LineBuffer, keys: string[]) =>
    keys.map((k) => buffer.press(k)).filter(Boolean);

  test('Enter ends a line; Backspace takes back a letter; Shift and arrows type nothing', () => {
    const buffer = new LineBuffer();
    expect(
      typeKeys(buffer, [
        'Shift',
        'H',
        'i',
        'x',
        'Backspace',
        'ArrowLeft',
        ' ',
        'm',
        'u',
        'm',
        'Enter',
      ]),
    ).toEqual(['Hi mum']);
  });

  test('an empty line is dropped; a shortcut types nothing', () => {
    const buffer = new LineBuffer();
    expect(buffer.press(' ')).toBeUndefined();
    expect(buffer.press('Enter')).toBeUndefined();
    expect(buffer.press('c', true)).toBeUndefined();
    expect(buffer.flush()).toBeUndefined();
  });

  test('flush (blur, idle) gives the line so far; paste counts as typed', () => {
    const buffer = new LineBuffer();
    typeKeys(buffer, ['a', 'b']);
    buffer.paste('c\nd');
    expect(buffer.flush()).toBe('abc d');
    expect(buffer.flush()).toBeUndefined();
  });

  test('emoji are one key', () => {
    const buffer = new LineBuffer();
    typeKeys(buffer, ['🙂', 'Enter']);
    expect(buffer.flush()).toBeUndefined();
    expect(typeKeys(new LineBuffer(), ['🙂', 'Enter'])).toEqual(['🙂']);
  });
});
