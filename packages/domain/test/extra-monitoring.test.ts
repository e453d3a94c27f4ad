import { describe, expect, test } from 'vitest';
import {
  type ChildMonitoring,
  describeExtraMonitoringKey,
  describeInterval,
  type ExtraMonitoring,
  extraMonitoringKey,
  extraMonitoringOptions,
  parseExtraMonitoringKey,
} from '../src/extra-monitoring.ts';

const child = (overrides: Partial<ChildMonitoring> = {}): ChildMonitoring => ({
  keyloggingEnabled: false,
  screenshotsEnabled: false,
  screenshotsFrequency: 120,
  ...overrides,
});

describe('extraMonitoringOptions', () => {
  test.each<[string, ChildMonitoring, [string, string][]]>([
    [
      'nothing on: keylogging, four fixed intervals, each also with keylogging',
      child(),
      [
        ['k', 'keylogging'],
        ['@120', 'screenshots every 2 minutes'],
        ['@90', 'screenshots every 90 seconds'],
        ['@60', 'screenshots every minute'],
        ['@30', 'screenshots every 30 seconds'],
        ['@120+k', 'screenshots every 2 minutes + keylogging'],
        ['@90+k', 'screenshots every 90 seconds + keylogging'],
        ['@60+k', 'screenshots every minute + keylogging'],
        ['@30+k', 'screenshots every 30 seconds + keylogging'],
      ],
    ],
    [
      'keylogging on, screenshots off: the fixed intervals only',
      child({ keyloggingEnabled: true }),
      [
        ['@120', 'screenshots every 2 minutes'],
        ['@90', 'screenshots every 90 seconds'],
        ['@60', 'screenshots every minute'],
        ['@30', 'screenshots every 30 seconds'],
      ],
    ],
    [
      'screenshots every 90 s, keylogging on: 1.5x, 2x and 3x the rate',
      child({ keyloggingEnabled: true, screenshotsEnabled: true, screenshotsFrequency: 90 }),
      [
        ['@60', '1.5x screenshots'],
        ['@45', '2x screenshots'],
        ['@30', '3x screenshots'],
      ],
    ],
    [
      'screenshots every 100 s: intervals rounded down to whole seconds',
      child({ keyloggingEnabled: true, screenshotsEnabled: true, screenshotsFrequency: 100 }),
      [
        ['@66', '1.5x screenshots'],
        ['@50', '2x screenshots'],
        ['@33', '3x screenshots'],
      ],
    ],
    [
      'screenshots on, keylogging off: the rates, keylogging, and both',
      child({ screenshotsEnabled: true, screenshotsFrequency: 60 }),
      [
        ['k', 'keylogging'],
        ['@40', '1.5x screenshots'],
        ['@30', '2x screenshots'],
        ['@20', '3x screenshots'],
        ['@40+k', '1.5x screenshots + keylogging'],
        ['@30+k', '2x screenshots + keylogging'],
        ['@20+k', '3x screenshots + keylogging'],
      ],
    ],
    [
      'every 20 s: 3x (6 s) is under the 10 s minimum and dropped',
      child({ keyloggingEnabled: true, screenshotsEnabled: true, screenshotsFrequency: 20 }),
      [
        ['@13', '1.5x screenshots'],
        ['@10', '2x screenshots'],
      ],
    ],
    [
      'every 10 s with keylogging on: nothing more to offer',
      child({ keyloggingEnabled: true, screenshotsEnabled: true, screenshotsFrequency: 10 }),
      [],
    ],
    [
      'every 10 s, keylogging off: keylogging only',
      child({ screenshotsEnabled: true, screenshotsFrequency: 10 }),
      [['k', 'keylogging']],
    ],
  ])('%s', (_name, settings, expected) => {
    expect(Object.entries(extraMonitoringOptions(settings))).toEqual(expected);
  });

  test('every offered key parses back to what its label says', () => {
    const options = extraMonitoringOptions(child({ screenshotsEnabled: true }));
    for (const key of Object.keys(options)) {
      const parsed = parseExtraMonitoringKey(key);
      expect(parsed).toBeDefined();
      expect(extraMonitoringKey(parsed!)).toBe(key);
    }
  });
});

describe('parseExtraMonitoringKey', () => {
  test.each<[string, ExtraMonitoring | undefined]>([
    ['k', { addsKeylogging: true }],
    ['@60', { screenshotsFrequency: 60, addsKeylogging: false }],
    ['@45+k', { screenshotsFrequency: 45, addsKeylogging: true }],
    ['', undefined],
    ['K', undefined],
    ['@', undefined],
    ['@0', undefined],
    ['@060', undefined],
    ['@-5', undefined],
    ['@1.5', undefined],
    ['@60+', undefined],
    ['@60k', undefined],
    ['k+@60', undefined],
    [' @60', undefined],
    ['@1234567', undefined],
  ])('%j → %j', (key, expected) => {
    expect(parseExtraMonitoringKey(key)).toEqual(expected);
  });
});

describe('wording', () => {
  test.each<[number, string]>([
    [60, 'every minute'],
    [120, 'every 2 minutes'],
    [90, 'every 90 seconds'],
    [10, 'every 10 seconds'],
  ])('describeInterval(%i) = %j', (seconds, expected) => {
    expect(describeInterval(seconds)).toBe(expected);
  });

  test.each<[string, string]>([
    ['k', 'keylogging'],
    ['@30', 'screenshots every 30 seconds'],
    ['@120+k', 'screenshots every 2 minutes + keylogging'],
    ['nonsense', 'nonsense'],
  ])('describeExtraMonitoringKey(%j) = %j', (key, expected) => {
    expect(describeExtraMonitoringKey(key)).toBe(expected);
  });
});
