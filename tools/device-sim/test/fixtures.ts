import type { CheckInOutput, UserData } from '@keyward/contract/device';
import type { RuleSchedule } from '@keyward/contract/shared';

export const CHILD_ID = '11111111-1111-4111-8111-111111111111';
export const KEYCHAIN_ID = '22222222-2222-4222-8222-222222222222';
export const KEY_ID = '33333333-3333-4333-8333-333333333333';

export const WEEKDAY_MORNINGS: RuleSchedule = {
  mode: 'active',
  days: {
    sunday: false,
    monday: true,
    tuesday: true,
    wednesday: true,
    thursday: true,
    friday: true,
    saturday: false,
  },
  window: { start: { hour: 8, minute: 0 }, end: { hour: 12, minute: 0 } },
};

export const TOKEN = '44444444-4444-4444-8444-444444444444';
export const COMPUTER_USER_ID = '55555555-5555-4555-8555-555555555555';

export function userData(overrides: Partial<UserData> = {}): UserData {
  return {
    id: CHILD_ID,
    token: TOKEN,
    deviceId: COMPUTER_USER_ID,
    connectedAt: '2025-01-15T11:00:00Z',
    name: 'Ana',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotFrequency: 60,
    screenshotSize: 800,
    blockedApps: [],
    ...overrides,
  };
}

export function checkInOutput(overrides: Partial<CheckInOutput> = {}): CheckInOutput {
  return {
    adminAccountStatus: 'active',
    appManifest: { apps: {}, displayNames: {}, categories: {} },
    browsers: [],
    keychains: [],
    latestRelease: { semver: '2.6.0' },
    updateReleaseChannel: 'stable',
    userData: userData(),
    trustedTime: Date.parse('2025-01-15T12:00:00.000Z') / 1000,
    ...overrides,
  };
}
