import { describe, expect, test } from 'vitest';
import { keysActiveAt } from '../src/commands/keys.ts';
import {
  diffSettings,
  formatCheckIn,
  formatDays,
  formatFilterState,
  formatSchedule,
  formatUserData,
  settingsOf,
} from '../src/format.ts';
import { checkInOutput, KEY_ID, KEYCHAIN_ID, userData, WEEKDAY_MORNINGS } from './fixtures.ts';

describe('schedules', () => {
  test.each([
    [WEEKDAY_MORNINGS.days, 'weekdays'],
    [{ ...WEEKDAY_MORNINGS.days, sunday: true, saturday: true }, 'every day'],
    [
      {
        sunday: true,
        monday: false,
        tuesday: false,
        wednesday: false,
        thursday: false,
        friday: false,
        saturday: true,
      },
      'weekends',
    ],
    [{ ...WEEKDAY_MORNINGS.days, tuesday: false, sunday: true }, 'Mon, Wed, Thu, Fri, Sun'],
  ])('days %j read as %s', (days, text) => {
    expect(formatDays(days)).toBe(text);
  });

  test('mode active reads "only", inactive reads "except"', () => {
    expect(formatSchedule(WEEKDAY_MORNINGS)).toBe('only weekdays 08:00-12:00');
    expect(formatSchedule({ ...WEEKDAY_MORNINGS, mode: 'inactive' })).toBe(
      'except weekdays 08:00-12:00',
    );
  });
});

describe('formatUserData', () => {
  test('settings a parent recognises', () => {
    const lines = formatUserData(
      userData({
        screenshotsEnabled: true,
        keyloggingEnabled: true,
        downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 30 } },
        blockedApps: [
          { id: KEY_ID, identifier: 'com.valvesoftware.steam' },
          { id: KEYCHAIN_ID, identifier: 'Discord', schedule: WEEKDAY_MORNINGS },
        ],
      }),
    );
    expect(lines).toEqual([
      'Child: Ana (11111111-1111-4111-8111-111111111111)',
      'Screenshots: on, every 60 s, 800 px wide',
      'Keystroke monitoring: on',
      'Downtime: 21:00-05:30',
      'Blocked apps:',
      '  - com.valvesoftware.steam (always)',
      '  - Discord (only weekdays 08:00-12:00)',
    ]);
  });
});

describe('formatCheckIn', () => {
  test('lists keychains with their keys and the release', () => {
    const lines = formatCheckIn(
      checkInOutput({
        adminAccountStatus: 'needsAttention',
        keychains: [
          {
            id: KEYCHAIN_ID,
            schedule: WEEKDAY_MORNINGS,
            keys: [
              {
                id: KEY_ID,
                key: {
                  type: 'anySubdomain',
                  domain: 'khanacademy.org',
                  scope: { type: 'webBrowsers' },
                },
              },
            ],
          },
        ],
        latestRelease: {
          semver: '2.7.0',
          pace: { nagOn: '2025-01-08T00:00:00Z', requireOn: '2025-01-15T00:00:00Z' },
        },
      }),
    );
    expect(lines[0]).toBe('Account status: needsAttention');
    expect(lines).toContain(`  - keychain ${KEYCHAIN_ID} (only weekdays 08:00-12:00), 1 key`);
    expect(lines).toContain('      khanacademy.org and its subdomains in web browsers');
    expect(lines).toContain(
      'Latest release: 2.7.0, nag from 2025-01-08T00:00:00Z, required from 2025-01-15T00:00:00Z',
    );
    expect(lines).toContain('Release channel: stable');
  });

  test('no keychains and up to date', () => {
    const lines = formatCheckIn(checkInOutput());
    expect(lines).toContain('Keychains:');
    expect(lines[lines.indexOf('Keychains:') + 1]).toBe('  (none)');
    expect(lines).toContain('Latest release: 2.6.0 (this Mac is up to date)');
  });
});

test('formatFilterState', () => {
  expect(formatFilterState({ case: 'off' })).toBe('filter off');
  expect(formatFilterState({ case: 'suspended', resuming: '2025-01-01T10:00:00Z' })).toBe(
    'filter suspended until 2025-01-01T10:00:00Z',
  );
});

describe('diffSettings', () => {
  test('tells each changed setting as "name: before -> after"', () => {
    const before = settingsOf(userData(), checkInOutput());
    const after = settingsOf(
      userData({ screenshotsEnabled: true, screenshotFrequency: 120 }),
      checkInOutput(),
    );
    expect(diffSettings(before, after)).toEqual([
      'screenshotsEnabled: false -> true',
      'screenshotFrequency: 60 -> 120',
    ]);
  });

  test('keychains appear and disappear', () => {
    const keychain = {
      id: KEYCHAIN_ID,
      keys: [
        {
          id: KEY_ID,
          key: {
            type: 'domain' as const,
            domain: 'a.com',
            scope: { type: 'unrestricted' as const },
          },
        },
      ],
    };
    const without = settingsOf(userData(), checkInOutput());
    const withKeychain = settingsOf(userData(), checkInOutput({ keychains: [keychain] }));
    expect(diffSettings(without, withKeychain)).toEqual([
      `keychain ${KEYCHAIN_ID}: (none) -> always; 1 key: a.com (this domain and www. only) in any app`,
    ]);
    expect(diffSettings(withKeychain, without)).toEqual([
      `keychain ${KEYCHAIN_ID}: always; 1 key: a.com (this domain and www. only) in any app -> (none)`,
    ]);
  });

  test('nothing changed, or nothing to compare with', () => {
    const settings = settingsOf(userData(), checkInOutput());
    expect(diffSettings(settings, { ...settings })).toEqual([]);
    expect(diffSettings(undefined, settings)).toEqual([]);
  });

  test('the first check-in after a connect does not report the account status as a change', () => {
    const afterConnect = settingsOf(userData());
    expect(diffSettings(afterConnect, settingsOf(userData(), checkInOutput()))).toEqual([]);
  });
});

describe('keysActiveAt', () => {
  const keychains = [
    {
      id: KEYCHAIN_ID,
      schedule: WEEKDAY_MORNINGS,
      keys: [
        {
          id: KEY_ID,
          key: {
            type: 'domain' as const,
            domain: 'school.org',
            scope: { type: 'webBrowsers' as const },
          },
        },
      ],
    },
    {
      id: KEY_ID,
      keys: [
        {
          id: KEYCHAIN_ID,
          key: {
            type: 'skeleton' as const,
            scope: { type: 'bundleId' as const, bundleId: 'com.apple.Music' },
          },
        },
      ],
    },
  ];

  test('a scheduled keychain applies only inside its window; an unscheduled one always', () => {
    expect(keysActiveAt(keychains, { weekday: 'monday', hour: 9, minute: 0 })).toEqual([
      'school.org (this domain and www. only) in web browsers',
      'all internet access for the app com.apple.Music',
    ]);
    expect(keysActiveAt(keychains, { weekday: 'saturday', hour: 9, minute: 0 })).toEqual([
      'all internet access for the app com.apple.Music',
    ]);
    expect(keysActiveAt(keychains, { weekday: 'monday', hour: 12, minute: 0 })).toHaveLength(1);
  });
});
