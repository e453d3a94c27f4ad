import { describe, expect, test } from 'vitest';
import {
  blockedAppAdditionProblem,
  duplicateBlockedAppProblem,
  MAX_SCREENSHOTS_RESOLUTION,
  MIN_SCREENSHOTS_RESOLUTION,
  SCREENSHOTS_RESOLUTION_HINT,
  SCREENSHOTS_RESOLUTION_MESSAGE,
  screenshotsResolutionProblem,
} from '../src/child-settings.ts';

describe('screenshot resolution', () => {
  test('the limits are 200 and 4,000 pixels, in the words shown to parents', () => {
    expect([MIN_SCREENSHOTS_RESOLUTION, MAX_SCREENSHOTS_RESOLUTION]).toEqual([200, 4000]);
    expect(SCREENSHOTS_RESOLUTION_HINT).toBe('From 200 to 4,000 pixels.');
    expect(SCREENSHOTS_RESOLUTION_MESSAGE).toBe(
      'Screenshot resolution must be between 200 and 4,000 pixels.',
    );
  });

  test.each<[number, boolean]>([
    [200, true],
    [1000, true],
    [4000, true],
    [199, false],
    [4001, false],
    [0, false],
    [-1000, false],
    [1000.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('%s pixels accepted: %s', (resolution, accepted) => {
    expect(screenshotsResolutionProblem(resolution)).toBe(
      accepted ? null : SCREENSHOTS_RESOLUTION_MESSAGE,
    );
  });
});

describe('blocked app duplicates', () => {
  test.each<[string, string[], string, string | null]>([
    ['new app', ['zoom'], 'Steam', null],
    ['same identifier', ['zoom'], 'zoom', "'zoom' is already in the blocked apps."],
    ['other letter case', ['Zoom'], 'ZOOM', "'Zoom' is already in the blocked apps."],
    [
      'surrounding spaces',
      ['us.zoom.xos'],
      '  US.Zoom.XOS ',
      "'us.zoom.xos' is already in the blocked apps.",
    ],
    ['a longer identifier is another app', ['zoom'], 'zoom.us', null],
    ['empty list', [], 'zoom', null],
  ])('adding to the list: %s', (_case, blocked, identifier, expected) => {
    expect(blockedAppAdditionProblem(blocked, identifier)).toBe(expected);
  });

  test.each<[string[], string | null]>([
    [[], null],
    [['zoom', 'Steam', 'com.apple.Safari'], null],
    [['zoom', 'Steam', 'ZOOM'], "'zoom' is already in the blocked apps."],
    [['Steam', 'arc', ' steam'], "'Steam' is already in the blocked apps."],
    [['a', 'b', 'B', 'A'], "'b' is already in the blocked apps."],
  ])('a saved list %j: %s', (identifiers, expected) => {
    expect(duplicateBlockedAppProblem(identifiers)).toBe(expected);
  });
});
