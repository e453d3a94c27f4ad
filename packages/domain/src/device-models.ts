import type { DeviceModelFamily } from '@keyward/contract/shared';

export interface DeviceModel {
  family: DeviceModelFamily;
  title: string;
}

type ModelRow = readonly [identifier: string, family: DeviceModelFamily, title: string];

// Apple's model identifiers (System Information → Model Identifier).
const MODELS: readonly ModelRow[] = [
  ['MacBook8,1', 'macBook', 'MacBook (Retina, 12-inch, Early 2015)'],
  ['MacBook9,1', 'macBook', 'MacBook (Retina, 12-inch, Early 2016)'],
  ['MacBook10,1', 'macBook', 'MacBook (Retina, 12-inch, 2017)'],

  ['MacBookAir7,1', 'macBookAir', '11" MacBook Air (Early 2015)'],
  ['MacBookAir7,2', 'macBookAir', '13" MacBook Air (2015)'],
  ['MacBookAir8,1', 'macBookAir', 'MacBook Air (Retina, 13-inch, 2018)'],
  ['MacBookAir8,2', 'macBookAir', 'MacBook Air (Retina, 13-inch, 2019)'],
  ['MacBookAir9,1', 'macBookAir', 'MacBook Air (Retina, 13-inch, 2020)'],
  ['MacBookAir10,1', 'macBookAir', 'MacBook Air (M1, 2020)'],
  ['Mac14,2', 'macBookAir', 'MacBook Air (M2, 2022)'],
  ['Mac14,15', 'macBookAir', '15" MacBook Air (M2, 2023)'],
  ['Mac15,12', 'macBookAir', '13" MacBook Air (M3, 2024)'],
  ['Mac15,13', 'macBookAir', '15" MacBook Air (M3, 2024)'],
  ['Mac16,12', 'macBookAir', '13" MacBook Air (M4, 2025)'],
  ['Mac16,13', 'macBookAir', '15" MacBook Air (M4, 2025)'],

  ['MacBookPro11,4', 'macBookPro', '15" MacBook Pro (Mid 2015)'],
  ['MacBookPro12,1', 'macBookPro', '13" MacBook Pro (Early 2015)'],
  ['MacBookPro13,1', 'macBookPro', '13" MacBook Pro (2016, Two Thunderbolt 3 ports)'],
  ['MacBookPro13,2', 'macBookPro', '13" MacBook Pro (2016, Four Thunderbolt 3 ports)'],
  ['MacBookPro13,3', 'macBookPro', '15" MacBook Pro (2016)'],
  ['MacBookPro14,1', 'macBookPro', '13" MacBook Pro (2017, Two Thunderbolt 3 ports)'],
  ['MacBookPro14,2', 'macBookPro', '13" MacBook Pro (2017, Four Thunderbolt 3 ports)'],
  ['MacBookPro14,3', 'macBookPro', '15" MacBook Pro (2017)'],
  ['MacBookPro15,1', 'macBookPro', '15" MacBook Pro (2018)'],
  ['MacBookPro15,2', 'macBookPro', '13" MacBook Pro (2018, Four Thunderbolt 3 ports)'],
  ['MacBookPro15,4', 'macBookPro', '13" MacBook Pro (2019, Two Thunderbolt 3 ports)'],
  ['MacBookPro16,1', 'macBookPro', '16" MacBook Pro (2019)'],
  ['MacBookPro16,2', 'macBookPro', '13" MacBook Pro (2020, Four Thunderbolt 3 ports)'],
  ['MacBookPro16,3', 'macBookPro', '13" MacBook Pro (2020, Two Thunderbolt 3 ports)'],
  ['MacBookPro16,4', 'macBookPro', '16" MacBook Pro (2019)'],
  ['MacBookPro17,1', 'macBookPro', '13" MacBook Pro (M1, 2020)'],
  ['MacBookPro18,1', 'macBookPro', '16" MacBook Pro (M1 Pro, 2021)'],
  ['MacBookPro18,2', 'macBookPro', '16" MacBook Pro (M1 Max, 2021)'],
  ['MacBookPro18,3', 'macBookPro', '14" MacBook Pro (M1 Pro, 2021)'],
  ['MacBookPro18,4', 'macBookPro', '14" MacBook Pro (M1 Max, 2021)'],
  ['Mac14,7', 'macBookPro', '13" MacBook Pro (M2, 2022)'],
  ['Mac14,9', 'macBookPro', '14" MacBook Pro (M2 Pro, 2023)'],
  ['Mac14,5', 'macBookPro', '14" MacBook Pro (M2 Max, 2023)'],
  ['Mac14,10', 'macBookPro', '16" MacBook Pro (M2 Pro, 2023)'],
  ['Mac14,6', 'macBookPro', '16" MacBook Pro (M2 Max, 2023)'],
  ['Mac15,3', 'macBookPro', '14" MacBook Pro (M3, 2023)'],
  ['Mac15,6', 'macBookPro', '14" MacBook Pro (M3 Pro, 2023)'],
  ['Mac15,8', 'macBookPro', '14" MacBook Pro (M3 Max, 2023)'],
  ['Mac15,7', 'macBookPro', '16" MacBook Pro (M3 Pro, 2023)'],
  ['Mac15,9', 'macBookPro', '16" MacBook Pro (M3 Max, 2023)'],
  ['Mac16,1', 'macBookPro', '14" MacBook Pro (M4, 2024)'],
  ['Mac16,6', 'macBookPro', '14" MacBook Pro (M4 Max, 2024)'],
  ['Mac16,8', 'macBookPro', '14" MacBook Pro (M4 Pro, 2024)'],
  ['Mac16,5', 'macBookPro', '16" MacBook Pro (M4 Max, 2024)'],
  ['Mac16,7', 'macBookPro', '16" MacBook Pro (M4 Pro, 2024)'],

  ['iMac18,1', 'iMac', '21.5" iMac (2017)'],
  ['iMac18,2', 'iMac', '21.5" iMac (Retina 4K, 2017)'],
  ['iMac18,3', 'iMac', '27" iMac (Retina 5K, 2017)'],
  ['iMac19,1', 'iMac', '27" iMac (Retina 5K, 2019)'],
  ['iMac19,2', 'iMac', '21.5" iMac (Retina 4K, 2019)'],
  ['iMac20,1', 'iMac', '27" iMac (Retina 5K, 2020)'],
  ['iMac20,2', 'iMac', '27" iMac (Retina 5K, 2020)'],
  ['iMacPro1,1', 'iMac', 'iMac Pro (2017)'],
  ['iMac21,1', 'iMac', '24" iMac (M1, 2021)'],
  ['iMac21,2', 'iMac', '24" iMac (M1, 2021)'],
  ['Mac15,4', 'iMac', '24" iMac (M3, 2023)'],
  ['Mac15,5', 'iMac', '24" iMac (M3, 2023)'],
  ['Mac16,2', 'iMac', '24" iMac (M4, 2024)'],
  ['Mac16,3', 'iMac', '24" iMac (M4, 2024)'],

  ['Macmini7,1', 'mini', 'Mac mini (Late 2014)'],
  ['Macmini8,1', 'mini', 'Mac mini (2018)'],
  ['Macmini9,1', 'mini', 'Mac mini (M1, 2020)'],
  ['Mac14,3', 'mini', 'Mac mini (M2, 2023)'],
  ['Mac14,12', 'mini', 'Mac mini (M2 Pro, 2023)'],
  ['Mac16,10', 'mini', 'Mac mini (M4, 2024)'],
  ['Mac16,11', 'mini', 'Mac mini (M4 Pro, 2024)'],

  ['Mac13,1', 'studio', 'Mac Studio (M1 Max, 2022)'],
  ['Mac13,2', 'studio', 'Mac Studio (M1 Ultra, 2022)'],
  ['Mac14,13', 'studio', 'Mac Studio (M2 Max, 2023)'],
  ['Mac14,14', 'studio', 'Mac Studio (M2 Ultra, 2023)'],
  ['Mac16,9', 'studio', 'Mac Studio (M4 Max, 2025)'],
  ['Mac15,14', 'studio', 'Mac Studio (M3 Ultra, 2025)'],

  ['MacPro6,1', 'pro', 'Mac Pro (Late 2013)'],
  ['MacPro7,1', 'pro', 'Mac Pro (2019)'],
  ['Mac14,8', 'pro', 'Mac Pro (M2 Ultra, 2023)'],
];

const MODELS_BY_IDENTIFIER: ReadonlyMap<string, DeviceModel> = new Map(
  MODELS.map(([identifier, family, title]) => [identifier, { family, title }]),
);

export const KNOWN_MODEL_IDENTIFIERS: readonly string[] = MODELS.map(([identifier]) => identifier);

const BROWSER_PLATFORMS: Readonly<Record<string, string>> = {
  chromeOS: 'ChromeOS',
  windows: 'Windows',
  linux: 'Linux',
  macOS: 'macOS',
};

/**
 * Issue 22: a browser with Keyward for Chrome is a computer whose model identifier is
 * `browser:<Browser>:<platform>` (e.g. `browser:Chrome:windows`).
 */
export function browserModelIdentifier(browser: string, platform: string): string {
  return `browser:${browser.replaceAll(':', ' ').trim()}:${platform}`;
}

/** "Chrome on Windows" for a browser's model identifier; undefined for any other identifier. */
export function browserModelTitle(modelIdentifier: string): string | undefined {
  const match = /^browser:([^:]+):(\w+)$/.exec(modelIdentifier.trim());
  if (!match) return undefined;
  const [, browser, platform] = match;
  return `${browser} on ${BROWSER_PLATFORMS[platform ?? ''] ?? 'a computer'}`;
}

const DNS_KINDS: Readonly<Record<string, string>> = {
  android: 'Android phone or tablet',
  ios: 'iPhone or iPad',
  macos: 'Mac',
  windows: 'Windows computer',
  other: 'device',
};

/** Issue 33: a device filtered by Keyward DNS is a computer whose model identifier is `dns:<kind>`. */
export function dnsModelIdentifier(kind: string): string {
  return `dns:${kind}`;
}

/** Issue 33: whether a computer's model identifier is a Keyward DNS device's. */
export function isDnsModel(modelIdentifier: string): boolean {
  return /^dns:\w+$/.test(modelIdentifier.trim());
}

/** "Android phone or tablet (Keyward DNS)"; undefined for any other identifier. */
export function dnsModelTitle(modelIdentifier: string): string | undefined {
  const match = /^dns:(\w+)$/.exec(modelIdentifier.trim());
  if (!match) return undefined;
  return `${DNS_KINDS[match[1] ?? ''] ?? 'device'} (Keyward DNS)`;
}

export function describeModel(modelIdentifier: string): DeviceModel {
  const known = MODELS_BY_IDENTIFIER.get(modelIdentifier.trim());
  if (known) return known;
  const named = browserModelTitle(modelIdentifier) ?? dnsModelTitle(modelIdentifier);
  return { family: 'unknown', title: named ?? modelIdentifier };
}
