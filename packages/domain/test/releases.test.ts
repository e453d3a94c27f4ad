import type { ReleaseChannel } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  compareVersions,
  highestVersion,
  latestVersionFor,
  moreStableChannel,
  type Release,
} from '../src/releases.ts';

describe('compareVersions', () => {
  test.each<[string, string, number]>([
    ['1.0.0', '1.0.0', 0],
    ['2.10.0', '2.9.9', 1],
    ['2.9.9', '2.10.0', -1],
    ['1.2', '1.2.0', 0],
    ['1.2.1', '1.2', 1],
    ['10.0.0', '9.99.99', 1],
  ])('%s vs %s → %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });
});

describe('highestVersion', () => {
  test.each<[string[], string]>([
    [[], '0.0.0'],
    [['1.0.0'], '1.0.0'],
    [['1.9.0', '1.10.0', '1.2.0'], '1.10.0'],
    [['0.0.0', '2.0.1', '2.0.0'], '2.0.1'],
  ])('%j → %s', (versions, expected) => {
    expect(highestVersion(versions)).toBe(expected);
  });
});

describe('latestVersionFor', () => {
  const releases: Release[] = [
    { semver: '2.0.0', channel: 'stable' },
    { semver: '2.1.0', channel: 'beta' },
    { semver: '2.2.0', channel: 'canary' },
  ];
  test.each<[Release[], ReleaseChannel, string]>([
    [releases, 'stable', '2.0.0'],
    [releases, 'beta', '2.1.0'],
    [releases, 'canary', '2.2.0'],
    // a stable release newer than the beta one reaches beta computers too
    [[...releases, { semver: '2.3.0', channel: 'stable' }], 'beta', '2.3.0'],
    [[{ semver: '3.0.0', channel: 'canary' }], 'stable', '0.0.0'],
    [[], 'canary', '0.0.0'],
  ])('%j on %s → %s', (list, channel, expected) => {
    expect(latestVersionFor(list, channel)).toBe(expected);
  });
});

test.each<[ReleaseChannel, ReleaseChannel, ReleaseChannel]>([
  ['stable', 'beta', 'stable'],
  ['canary', 'beta', 'beta'],
  ['canary', 'canary', 'canary'],
])('moreStableChannel(%s, %s) = %s', (a, b, expected) => {
  expect(moreStableChannel(a, b)).toBe(expected);
});
