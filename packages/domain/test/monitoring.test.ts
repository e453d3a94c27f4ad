import { expect, test } from 'vitest';
import { type MonitoringSettings, monitoringDecreases } from '../src/monitoring.ts';

const base: MonitoringSettings = {
  keyloggingEnabled: true,
  screenshotsEnabled: true,
  screenshotsResolution: 1000,
  screenshotsFrequency: 120,
  showSuspensionActivity: true,
};

test.each<[string, Partial<MonitoringSettings>, string[]]>([
  ['nothing changed', {}, []],
  ['keylogging off', { keyloggingEnabled: false }, ['keylogging turned off']],
  ['screenshots off', { screenshotsEnabled: false }, ['screenshots turned off']],
  [
    'resolution lowered',
    { screenshotsResolution: 800 },
    ['screenshot resolution lowered from 1000 to 800'],
  ],
  ['resolution raised', { screenshotsResolution: 1200 }, []],
  [
    'interval raised',
    { screenshotsFrequency: 300 },
    ['screenshot interval raised from 120 s to 300 s'],
  ],
  ['interval shortened', { screenshotsFrequency: 60 }, []],
  ['suspension activity hidden', { showSuspensionActivity: false }, ['suspension activity hidden']],
  [
    'several at once',
    { keyloggingEnabled: false, screenshotsEnabled: false },
    ['keylogging turned off', 'screenshots turned off'],
  ],
])('%s', (_name, change, expected) => {
  expect(monitoringDecreases(base, { ...base, ...change })).toEqual(expected);
});

test('turning monitoring on is not a decrease', () => {
  const off: MonitoringSettings = {
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
  };
  expect(monitoringDecreases(off, base)).toEqual([]);
});
