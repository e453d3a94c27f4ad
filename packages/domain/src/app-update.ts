import type { LatestRelease } from '@keyward/contract/device';
import type { ReleaseChannel } from '@keyward/contract/shared';
import { toSwiftIsoDate } from '@keyward/contract/swift';
import { compareVersions, isOfferedOn } from './releases.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PublishedRelease {
  semver: string;
  channel: ReleaseChannel;
  /** days between release and nagging; forced update after twice that */
  pace: number;
  releaseDate: Date | string;
}

function iso(date: Date | string, plusDays = 0): string {
  const time = (typeof date === 'string' ? Date.parse(date) : date.getTime()) + plusDays * DAY_MS;
  return toSwiftIsoDate(new Date(time));
}

/**
 * server-behaviour §4.2 `latestRelease`: the highest release newer than `currentVersion` on a
 * channel at least as stable as the computer's. Nagging starts `pace` days after the EARLIEST newer
 * release and the update is forced after twice that, so a Mac that skipped several releases is not
 * given a fresh grace period by each one. A Mac that is up to date is told its own version, with no
 * pace (the app requires the field and compares the versions).
 */
export function latestReleaseFor(
  releases: readonly PublishedRelease[],
  channel: ReleaseChannel,
  currentVersion: string,
): LatestRelease {
  const newer = releases
    .filter((release) => isOfferedOn(release.channel, channel))
    .filter((release) => compareVersions(release.semver, currentVersion) > 0);
  if (newer.length === 0) return { semver: currentVersion };
  const highest = newer.reduce((best, release) =>
    compareVersions(release.semver, best.semver) > 0 ? release : best,
  );
  const earliest = newer.reduce((first, release) =>
    Date.parse(iso(release.releaseDate)) < Date.parse(iso(first.releaseDate)) ? release : first,
  );
  return {
    semver: highest.semver,
    pace: {
      nagOn: iso(earliest.releaseDate, earliest.pace),
      requireOn: iso(earliest.releaseDate, 2 * earliest.pace),
    },
  };
}
