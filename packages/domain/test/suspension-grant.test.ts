import { describe, expect, test } from 'vitest';
import {
  grantedDurationSeconds,
  isSuspensionRequestExpired,
  isValidCustomMinutes,
  preselectedSuspensionDuration,
  type SuspensionDurationChoice,
  shouldShowSuspensionRequestDate,
  SUSPENSION_DURATIONS_SECONDS,
  suspensionDurationLabel,
} from '../src/suspension-grant.ts';

describe('suspension durations', () => {
  test('the spec presets, in seconds', () => {
    expect(SUSPENSION_DURATIONS_SECONDS).toEqual([180, 300, 600, 1200, 1800, 3600, 5400, 7200]);
  });

  test.each<[number, string]>([
    [60, '1 minute'],
    [180, '3 minutes'],
    [300, '5 minutes'],
    [3600, '1 hour'],
    [5400, '1 hour 30 minutes'],
    [7200, '2 hours'],
    [3660, '1 hour 1 minute'],
    [0, '0 minutes'],
  ])('label of %i s is %j', (seconds, label) => {
    expect(suspensionDurationLabel(seconds)).toBe(label);
  });
});

describe('custom minutes', () => {
  test.each<[string, boolean]>([
    ['2', true],
    ['1.5', true],
    [' 45 ', true],
    ['1', false],
    ['0', false],
    ['', false],
    ['-5', false],
    ['abc', false],
    ['1e3', false],
  ])('%j valid: %s', (input, expected) => {
    expect(isValidCustomMinutes(input)).toBe(expected);
  });
});

describe('grantedDurationSeconds', () => {
  test.each<[SuspensionDurationChoice, string, number | null]>([
    [300, '', 300],
    [7200, '99', 7200],
    ['custom', '20', 1200],
    ['custom', '1.5', 90],
    ['custom', '1', null],
    ['custom', 'x', null],
    [30, '', 60], // never under the minimum of 60 s
  ])('%j with custom %j → %j', (choice, minutes, expected) => {
    expect(grantedDurationSeconds(choice, minutes)).toBe(expected);
  });
});

describe('request age', () => {
  const createdAt = '2025-06-01T10:00:00.000Z';
  const at = (iso: string) => new Date(iso);

  test.each<[string, boolean]>([
    ['2025-06-01T10:00:00.000Z', false],
    ['2025-06-01T12:00:00.000Z', false],
    ['2025-06-01T12:00:00.001Z', true],
    ['2025-06-02T10:00:00.000Z', true],
  ])('expired at %s: %s', (now, expected) => {
    expect(isSuspensionRequestExpired(createdAt, at(now))).toBe(expected);
  });

  test.each<[string, boolean]>([
    ['2025-06-01T10:04:59.000Z', false],
    ['2025-06-01T10:05:00.000Z', false],
    ['2025-06-01T10:05:01.000Z', true],
  ])('date shown at %s: %s', (now, expected) => {
    expect(shouldShowSuspensionRequestDate(createdAt, at(now))).toBe(expected);
  });
});

describe('preselectedSuspensionDuration (issue 32: what the child asked)', () => {
  test.each<[number | undefined, SuspensionDurationChoice, string]>([
    [undefined, 300, ''],
    [0, 300, ''],
    [600, 600, ''],
    [3600, 3600, ''],
    [900, 'custom', '15'],
    [14_400, 'custom', '240'],
    [90, 180, ''], // 1.5 minutes is not whole: the nearest preset
    [60, 180, ''], // 1 minute is not a valid custom duration (more than 1 is needed)
    [650, 600, ''],
  ])('asked %j s → %j %j', (requested, duration, customMinutes) => {
    expect(preselectedSuspensionDuration(requested)).toEqual({ duration, customMinutes });
  });
});
