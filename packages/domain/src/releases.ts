import type { ReleaseChannel } from '@keyward/contract/shared';

/** Most stable first. A channel also receives every release of the channels before it. */
export const RELEASE_CHANNELS: readonly ReleaseChannel[] = ['stable', 'beta', 'canary'];

export const NO_RELEASE = '0.0.0';

function parts(version: string): number[] {
  return version
    .trim()
    .split('.')
    .map((part) => Number.parseInt(part, 10))
    .map((n) => (Number.isNaN(n) ? 0 : n));
}

/** Numeric comparison of dotted versions ('2.10.0' > '2.9.1'); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The highest of the versions, or `fallback` when there are none. */
export function highestVersion(versions: readonly string[], fallback = NO_RELEASE): string {
  return versions.reduce<string>(
    (best, version) => (compareVersions(version, best) > 0 ? version : best),
    versions[0] ?? fallback,
  );
}

/** True when a release on `releaseChannel` is offered to computers on `channel`. */
export function isOfferedOn(releaseChannel: ReleaseChannel, channel: ReleaseChannel): boolean {
  return RELEASE_CHANNELS.indexOf(releaseChannel) <= RELEASE_CHANNELS.indexOf(channel);
}

export interface Release {
  semver: string;
  channel: ReleaseChannel;
}

/** server-behaviour §3.3: the highest release on the channel or a more stable one; '0.0.0' if none. */
export function latestVersionFor(releases: readonly Release[], channel: ReleaseChannel): string {
  return highestVersion(
    releases.filter((release) => isOfferedOn(release.channel, channel)).map((r) => r.semver),
  );
}

/** The more stable of two channels (a version configured on two channels keeps this one). */
export function moreStableChannel(a: ReleaseChannel, b: ReleaseChannel): ReleaseChannel {
  return isOfferedOn(a, b) ? a : b;
}
