import type { BrowserPlatform } from '@keyward/contract/browser';

// Who we are running in, for ConnectBrowser and CheckIn.

/** `chrome.runtime.getPlatformInfo().os` → the contract's platform. */
export function platformOf(os: string): BrowserPlatform {
  switch (os) {
    case 'cros':
      return 'chromeOS';
    case 'win':
      return 'windows';
    case 'linux':
    case 'openbsd':
      return 'linux';
    case 'mac':
      return 'macOS';
    default:
      return 'other';
  }
}

export interface Brand {
  brand: string;
  version: string;
}

const BRAND_NAMES: [RegExp, string][] = [
  [/edge/i, 'Edge'],
  [/brave/i, 'Brave'],
  [/opera/i, 'Opera'],
  [/vivaldi/i, 'Vivaldi'],
  [/google chrome/i, 'Chrome'],
];

/**
 * The browser's name and version from `navigator.userAgentData` brands (full versions when
 * known), else from the user agent string. Versions fit the contract's `1` … `1.2.3.4`.
 */
export function browserOf(
  userAgent: string,
  brands: readonly Brand[] = [],
): { browser: string; version: string } {
  const chromeVersion = userAgent.match(/(?:Chrome|Chromium)\/(\d+(?:\.\d+){0,3})/)?.[1];
  for (const [pattern, name] of BRAND_NAMES) {
    const brand = brands.find((b) => pattern.test(b.brand));
    if (brand) return { browser: name, version: cleanVersion(brand.version, chromeVersion) };
  }
  const edge = userAgent.match(/Edg\/(\d+(?:\.\d+){0,3})/)?.[1];
  if (edge) return { browser: 'Edge', version: edge };
  const opera = userAgent.match(/OPR\/(\d+(?:\.\d+){0,3})/)?.[1];
  if (opera) return { browser: 'Opera', version: opera };
  const chromium = brands.find((b) => /chromium/i.test(b.brand));
  return {
    browser: 'Chromium',
    version: cleanVersion(chromium?.version ?? chromeVersion ?? '0', chromeVersion),
  };
}

function cleanVersion(version: string, fallback: string | undefined): string {
  const match = version.match(/^\d+(?:\.\d+){0,3}/)?.[0];
  return match ?? fallback ?? '0';
}
