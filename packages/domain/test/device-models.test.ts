import type { DeviceModelFamily } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  browserModelIdentifier,
  describeModel,
  dnsModelIdentifier,
  isDnsModel,
  KNOWN_MODEL_IDENTIFIERS,
} from '../src/device-models.ts';

describe('describeModel', () => {
  test.each<[string, DeviceModelFamily, string]>([
    ['MacBookPro16,1', 'macBookPro', '16" MacBook Pro (2019)'],
    ['MacBookPro18,3', 'macBookPro', '14" MacBook Pro (M1 Pro, 2021)'],
    ['Mac14,7', 'macBookPro', '13" MacBook Pro (M2, 2022)'],
    ['MacBookAir10,1', 'macBookAir', 'MacBook Air (M1, 2020)'],
    ['Mac14,2', 'macBookAir', 'MacBook Air (M2, 2022)'],
    ['Mac15,13', 'macBookAir', '15" MacBook Air (M3, 2024)'],
    ['MacBook10,1', 'macBook', 'MacBook (Retina, 12-inch, 2017)'],
    ['iMac21,1', 'iMac', '24" iMac (M1, 2021)'],
    ['iMacPro1,1', 'iMac', 'iMac Pro (2017)'],
    ['Macmini9,1', 'mini', 'Mac mini (M1, 2020)'],
    ['Mac14,3', 'mini', 'Mac mini (M2, 2023)'],
    ['Mac13,1', 'studio', 'Mac Studio (M1 Max, 2022)'],
    ['Mac13,2', 'studio', 'Mac Studio (M1 Ultra, 2022)'],
    ['MacPro7,1', 'pro', 'Mac Pro (2019)'],
    ['Mac14,8', 'pro', 'Mac Pro (M2 Ultra, 2023)'],
    [' Macmini8,1 ', 'mini', 'Mac mini (2018)'],
    ['MacBookPro99,1', 'unknown', 'MacBookPro99,1'],
    ['VirtualMac2,1', 'unknown', 'VirtualMac2,1'],
    ['', 'unknown', ''],
    // issue 22: browsers with Keyward for Chrome
    ['browser:Chrome:windows', 'unknown', 'Chrome on Windows'],
    ['browser:Edge:macOS', 'unknown', 'Edge on macOS'],
    ['browser:Chrome:chromeOS', 'unknown', 'Chrome on ChromeOS'],
    ['browser:Brave:other', 'unknown', 'Brave on a computer'],
    ['browser:Chrome', 'unknown', 'browser:Chrome'],
    ['dns:android', 'unknown', 'Android phone or tablet (Keyward DNS)'],
    ['dns:ios', 'unknown', 'iPhone or iPad (Keyward DNS)'],
    ['dns:other', 'unknown', 'device (Keyward DNS)'],
    ['dns:fridge', 'unknown', 'device (Keyward DNS)'],
  ])('%j → %s %j', (identifier, family, title) => {
    expect(describeModel(identifier)).toEqual({ family, title });
  });

  test('the table holds at least 30 distinct real identifiers', () => {
    expect(KNOWN_MODEL_IDENTIFIERS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(KNOWN_MODEL_IDENTIFIERS).size).toBe(KNOWN_MODEL_IDENTIFIERS.length);
    for (const id of KNOWN_MODEL_IDENTIFIERS) {
      expect(id).toMatch(
        /^(MacBook|MacBookAir|MacBookPro|iMac|iMacPro|Macmini|MacPro|Mac)\d+,\d+$/,
      );
      expect(describeModel(id).family).not.toBe('unknown');
    }
  });
});

test('a browser model identifier survives a browser name with a colon', () => {
  const identifier = browserModelIdentifier('Odd:Browser', 'linux');
  expect(describeModel(identifier)).toEqual({ family: 'unknown', title: 'Odd Browser on Linux' });
});

test('a Keyward DNS device is told by its model identifier (issue 33)', () => {
  expect(isDnsModel(dnsModelIdentifier('android'))).toBe(true);
  expect(isDnsModel('dns:ios')).toBe(true);
  for (const other of ['MacBookPro18,1', 'browser:chrome:linux', 'dns:', 'xdns:ios', 'dns:a b']) {
    expect(isDnsModel(other)).toBe(false);
  }
});
