import { KNOWN_MAC_SECURITY_EVENTS } from '@keyward/contract/device';
import { describe, expect, test } from 'vitest';
import {
  formatIpLocation,
  securityEventSummary,
  securityEventWording,
} from '../src/security-events.ts';

const DASHBOARD_EVENTS = [
  'login',
  'loginFailed',
  'passwordResetRequested',
  'passwordChanged',
  'childAdded',
  'childDeleted',
  'childComputerDeleted',
  'monitoringDecreased',
  'keyCreated',
  'keychainCreated',
  'keychainsChanged',
  'notificationDeleted',
  'blockedAppsChanged',
  'iosBlockRuleDeleted',
  // issue 12: sign-in security and the data export
  'totpEnabled',
  'totpDisabled',
  'recoveryCodeUsed',
  'passkeyAdded',
  'passkeyRemoved',
  'dataExportRequested',
];

describe('securityEventWording', () => {
  test.each([...KNOWN_MAC_SECURITY_EVENTS, ...DASHBOARD_EVENTS])(
    '%s has words and an explanation',
    (event) => {
      const wording = securityEventWording(event);
      expect(wording?.words).toMatch(/^\S.*\S$/);
      expect(wording?.explanation).toMatch(/\.$/);
    },
  );

  test.each(['somethingNew', '', 'toString', '__proto__', 'constructor'])(
    '%j is unknown',
    (event) => {
      expect(securityEventWording(event)).toBeUndefined();
    },
  );
});

describe('securityEventSummary', () => {
  test.each<[string, string | null | undefined, string]>([
    ['filterSuspendedRemotely', 'for 10 minutes', 'Filter suspended remotely: for 10 minutes'],
    ['appQuit', null, 'App quit'],
    ['appQuit', '', 'App quit'],
    ['newMacOsUserCreated', 'guest', 'New macOS user created: guest'],
    ['somethingNew', 'x', 'somethingNew: x'],
  ])('%s, %j → %j', (event, detail, expected) => {
    expect(securityEventSummary(event, detail)).toBe(expected);
  });
});

describe('formatIpLocation', () => {
  test.each([
    [
      { city: 'Mountain View', region: 'California', countryCode: 'US' },
      'Mountain View, California, US',
    ],
    [{ region: 'England', countryCode: 'GB' }, 'England, GB'],
    [{ city: 'Singapore', region: 'Singapore', countryCode: 'SG' }, 'Singapore, SG'],
    [{ countryCode: 'FR' }, 'FR'],
    [{ city: ' ', region: '' }, undefined],
    [{}, undefined],
    [undefined, undefined],
  ])('%j → %j', (location, expected) => {
    expect(formatIpLocation(location)).toBe(expected);
  });
});
