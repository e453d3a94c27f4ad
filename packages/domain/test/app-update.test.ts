import { describe, expect, test } from 'vitest';
import { latestReleaseFor, type PublishedRelease } from '../src/app-update.ts';

const releases: PublishedRelease[] = [
  { semver: '2.0.0', channel: 'stable', pace: 10, releaseDate: '2025-01-01T00:00:00.000Z' },
  { semver: '2.1.0', channel: 'stable', pace: 5, releaseDate: '2025-02-01T00:00:00.000Z' },
  { semver: '2.2.0', channel: 'beta', pace: 3, releaseDate: '2025-03-01T00:00:00.000Z' },
  { semver: '2.10.0', channel: 'canary', pace: 1, releaseDate: '2025-04-01T00:00:00.000Z' },
];

describe('latestReleaseFor', () => {
  test.each([
    // channel, current, expected semver, expected nagOn, expected requireOn
    ['stable', '1.9.0', '2.1.0', '2025-01-11T00:00:00Z', '2025-01-21T00:00:00Z'],
    ['stable', '2.0.0', '2.1.0', '2025-02-06T00:00:00Z', '2025-02-11T00:00:00Z'],
    ['beta', '2.0.5', '2.2.0', '2025-02-06T00:00:00Z', '2025-02-11T00:00:00Z'],
    ['canary', '2.2.0', '2.10.0', '2025-04-02T00:00:00Z', '2025-04-03T00:00:00Z'],
  ] as const)('%s channel at %s → %s', (channel, current, semver, nagOn, requireOn) => {
    const release = latestReleaseFor(releases, channel, current);
    expect(release).toEqual({ semver, pace: { nagOn, requireOn } });
  });

  test('up to date, or only newer releases on less stable channels → its own version, no pace', () => {
    expect(latestReleaseFor(releases, 'stable', '2.1.0')).toEqual({ semver: '2.1.0' });
    expect(latestReleaseFor(releases, 'beta', '2.2.0')).toEqual({ semver: '2.2.0' });
    expect(latestReleaseFor(releases, 'canary', '2.10.0')).toEqual({ semver: '2.10.0' });
    expect(latestReleaseFor([], 'canary', '0.0.0')).toEqual({ semver: '0.0.0' });
  });

  test('a release date with milliseconds gives whole-second pace dates', () => {
    const release = latestReleaseFor(
      [{ semver: '3.0.0', channel: 'stable', pace: 1, releaseDate: '2025-05-01T10:20:30.456Z' }],
      'stable',
      '2.0.0',
    );
    expect(release.pace).toEqual({
      nagOn: '2025-05-02T10:20:30Z',
      requireOn: '2025-05-03T10:20:30Z',
    });
  });
});
