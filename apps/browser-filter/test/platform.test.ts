import { expect, test } from 'vitest';
import { browserOf, platformOf } from '../src/platform.ts';

test.each([
  ['cros', 'chromeOS'],
  ['win', 'windows'],
  ['linux', 'linux'],
  ['mac', 'macOS'],
  ['android', 'other'],
  ['fuchsia', 'other'],
])('platform %s → %s', (os, platform) => {
  expect(platformOf(os)).toBe(platform);
});

const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36';

test.each<
  [string, string, { brand: string; version: string }[], { browser: string; version: string }]
>([
  [
    'Chrome by its brands',
    CHROME_UA,
    [
      { brand: 'Not_A Brand', version: '24.0.0.0' },
      { brand: 'Chromium', version: '131.0.6778.85' },
      { brand: 'Google Chrome', version: '131.0.6778.85' },
    ],
    { browser: 'Chrome', version: '131.0.6778.85' },
  ],
  [
    'Edge by its brands',
    `${CHROME_UA} Edg/131.0.2903.70`,
    [
      { brand: 'Chromium', version: '131.0.6778.85' },
      { brand: 'Microsoft Edge', version: '131.0.2903.70' },
    ],
    { browser: 'Edge', version: '131.0.2903.70' },
  ],
  [
    'Edge by its user agent',
    `${CHROME_UA} Edg/131.0.2903.70`,
    [],
    { browser: 'Edge', version: '131.0.2903.70' },
  ],
  [
    'plain Chromium',
    CHROME_UA,
    [{ brand: 'Chromium', version: '131' }],
    { browser: 'Chromium', version: '131' },
  ],
  [
    'headless',
    CHROME_UA.replace('Chrome/', 'HeadlessChrome/'),
    [],
    { browser: 'Chromium', version: '131.0.6778.85' },
  ],
  ['nothing known', 'Mozilla/5.0', [], { browser: 'Chromium', version: '0' }],
])('%s', (_name, userAgent, brands, expected) => {
  expect(browserOf(userAgent, brands)).toEqual(expected);
  expect(browserOf(userAgent, brands).version).toMatch(/^\d+(\.\d+){0,3}$/);
});
