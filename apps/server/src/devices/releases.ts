import type { ReleaseChannel } from '@keyward/contract/shared';
import { latestVersionFor, moreStableChannel, RELEASE_CHANNELS } from '@keyward/domain/releases';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';
import type { Clock } from '../services/clock.ts';
import { newToken } from '../services/tokens.ts';

/**
 * Days a Mac may wait before it is nagged (then forced after twice that) for a configured release;
 * configuration gives only the version, so its release date is the first start that saw it.
 */
export const CONFIGURED_RELEASE_PACE_DAYS = 14;

/**
 * Start-up: the configured latest version per channel (RELEASE_STABLE/BETA/CANARY) becomes a row
 * of `releases`. Idempotent; a version already known keeps its row and moves to the more stable of
 * its two channels (a beta promoted to stable is configured as stable).
 */
export async function loadConfiguredReleases(
  db: Db,
  config: Pick<Config, 'releases'>,
  clock: Clock,
): Promise<void> {
  for (const channel of RELEASE_CHANNELS) {
    const semver = config.releases[channel];
    if (semver === undefined) continue;
    const now = toDbTime(clock.now());
    await db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('releases')
        .select(['id', 'channel'])
        .where('semver', '=', semver)
        .executeTakeFirst();
      if (existing) {
        const stabler = moreStableChannel(existing.channel, channel);
        if (stabler !== existing.channel) {
          await trx
            .updateTable('releases')
            .set({ channel: stabler })
            .where('id', '=', existing.id)
            .execute();
        }
        return;
      }
      await trx
        .insertInto('releases')
        .values({
          id: newToken(),
          semver,
          channel,
          pace: CONFIGURED_RELEASE_PACE_DAYS,
          release_date: now,
          created_at: now,
        })
        .onConflict((oc) => oc.column('semver').doNothing())
        .execute();
    });
  }
}

/** The latest version offered on each channel (server-behaviour §3.3, CheckIn_v2 latestRelease). */
export async function latestAppVersions(db: Db): Promise<Record<ReleaseChannel, string>> {
  const releases = await db.selectFrom('releases').select(['semver', 'channel']).execute();
  return {
    stable: latestVersionFor(releases, 'stable'),
    beta: latestVersionFor(releases, 'beta'),
    canary: latestVersionFor(releases, 'canary'),
  };
}

/** The latest version offered to a computer on `channel`. */
export async function latestAppVersion(db: Db, channel: ReleaseChannel): Promise<string> {
  return (await latestAppVersions(db))[channel];
}
