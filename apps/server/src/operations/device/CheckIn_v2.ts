import type {
  AdminAccountStatus,
  AppManifest,
  Browser,
  CheckInInput,
  CheckInKeychain,
  CheckInOutput,
} from '@keyward/contract/device';
import type { RuleSchedule, SharedKey } from '@keyward/contract/shared';
import { latestReleaseFor } from '@keyward/domain/app-update';
import type { Db } from '../../db/database.ts';
import type { SubscriptionStatus } from '../../db/schema.ts';
import { fromDbBool, fromDbJson, toDbBool, toDbTime } from '../../db/values.ts';
import {
  loadResolvedSuspension,
  loadResolvedUnlockRequests,
} from '../../devices/resolved-requests.ts';
import { loadUserData } from '../../devices/user-data.ts';
import type { DeviceContext } from '../../pairql/context.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { serverError } from '../../pairql/errors.ts';
import { JsonText, readCacheOf } from '../../pairql/read-cache.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.2: the Mac's periodic check-in (every 20 minutes, and on `userUpdated`).

export default deviceResolver('CheckIn_v2', async (input, ctx) => {
  const now = ctx.clock.now();
  // the computer user, its computer and the data versions were read with the token (router), before
  // any of the answer's data, so a kept part is never older than the version it is kept for
  const { computer } = ctx;
  const computerUser = {
    id: ctx.computerUserId,
    computer_id: computer.computerId,
    app_version: computer.appVersion,
    is_admin: computer.isAdmin,
    filter_version: computer.filterVersion,
    os_version: computer.osVersion,
  };

  // One transaction: a check-in that fails half-way and is retried by the Mac counts nothing twice.
  // Most check-ins change nothing: they open no transaction.
  const changes = versionChanges(computerUser, input);
  if (changes.user || changes.computer || input.namedApps?.length) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateVersions(trx, computerUser, changes, now);
      if (input.namedApps?.length) await recordNamedApps({ ...ctx, db: trx }, input.namedApps);
    });
  }

  // issue 11: everything but the trusted time and the decided requests is the same for every
  // check-in of this child, channel and app version until the family's data (or the releases)
  // change or a key expires: it is kept serialized in the read cache (pairql/read-cache.ts)
  const channel = computer.appReleaseChannel;
  const cache = readCacheOf(ctx.db);
  const key = `CheckIn_v2\n${ctx.childId}\n${channel}\n${input.appVersion}`;
  const version =
    computer.familyVersion === undefined || computer.sharedVersion === undefined
      ? undefined
      : `${computer.familyVersion}/${computer.sharedVersion}`;
  const hit = version === undefined ? undefined : cache.get(key, version, now.getTime());
  let stableJson: string;
  let entry = hit;
  if (hit) {
    stableJson = hit.json;
    if (ctx.config.readCacheVerify) {
      const fresh = JSON.stringify((await stablePart(ctx, channel, input.appVersion, now)).part);
      if (fresh !== stableJson) {
        ctx.log.error(
          { op: 'CheckIn_v2', childId: ctx.childId },
          'read cache: the cached answer differs from the recomputed one',
        );
        throw serverError('0c8e5b31', 'Read cache of CheckIn_v2 holds a stale answer');
      }
    }
  } else {
    const { part, validUntil } = await stablePart(ctx, channel, input.appVersion, now);
    stableJson = JSON.stringify(part);
    if (version !== undefined && validUntil > now.getTime()) {
      entry = cache.set(key, { version, builtAt: now.getTime(), validUntil, json: stableJson });
    }
  }

  const output: Partial<CheckInOutput> = { trustedTime: now.toISOString() };
  if (input.pendingFilterSuspension !== undefined) {
    const decided = await loadResolvedSuspension(
      ctx.db,
      ctx.computerUserId,
      input.pendingFilterSuspension,
    );
    if (decided) output.resolvedFilterSuspension = decided;
  }
  if (input.pendingUnlockRequests !== undefined) {
    output.resolvedUnlockRequests = await loadResolvedUnlockRequests(
      ctx.db,
      ctx.computerUserId,
      input.pendingUnlockRequests,
    );
  }
  // the kept part's closing brace gives way to the per-request fields
  const suffix = `,${JSON.stringify(output).slice(1)}`;
  const answer = entry
    ? JsonText.extending(entry, suffix)
    : JsonText.of(`${stableJson.slice(0, -1)}${suffix}`);
  return answer as unknown as CheckInOutput;
});

type StablePart = Omit<
  CheckInOutput,
  'trustedTime' | 'resolvedFilterSuspension' | 'resolvedUnlockRequests'
>;

/** The answer but for its per-request fields, and the first instant it can change with no write. */
async function stablePart(
  ctx: DeviceContext,
  channel: CheckInOutput['updateReleaseChannel'],
  appVersion: string,
  now: Date,
): Promise<{ part: StablePart; validUntil: number }> {
  const releases = await ctx.db
    .selectFrom('releases')
    .select(['semver', 'channel', 'pace', 'release_date'])
    .execute();
  const latestRelease = latestReleaseFor(
    releases.map((r) => ({ ...r, releaseDate: r.release_date })),
    channel,
    appVersion,
  );
  const { keychains, nextExpiration } = await assignedKeychains(ctx.db, ctx.childId, now);
  const part: StablePart = {
    adminAccountStatus: await accountStatus(ctx.db, ctx.parentId),
    ...(await catalogueOf(ctx.db)),
    keychains,
    updateReleaseChannel: channel,
    userData: await loadUserData(ctx.db, ctx.childId),
  };
  if (latestRelease) part.latestRelease = latestRelease;
  // latestRelease does not depend on the time: only a key's expiration ends the part's validity
  return { part, validUntil: nextExpiration };
}

interface VersionChanges {
  user?: { app_version?: string; is_admin?: number };
  computer?: { filter_version?: string; os_version?: string };
}

/** Absent values never overwrite; unchanged values are not rewritten. */
function versionChanges(
  current: {
    app_version: string;
    is_admin: unknown;
    filter_version: string | null;
    os_version: string | null;
  },
  input: CheckInInput,
): VersionChanges {
  const userChanges: { app_version?: string; is_admin?: number } = {};
  if (input.appVersion !== current.app_version) userChanges.app_version = input.appVersion;
  if (
    input.isAdmin !== undefined &&
    (current.is_admin === null || input.isAdmin !== fromDbBool(current.is_admin))
  ) {
    userChanges.is_admin = toDbBool(input.isAdmin);
  }
  const computerChanges: { filter_version?: string; os_version?: string } = {};
  if (input.filterVersion !== undefined && input.filterVersion !== current.filter_version) {
    computerChanges.filter_version = input.filterVersion;
  }
  if (input.osVersion !== undefined && input.osVersion !== current.os_version) {
    computerChanges.os_version = input.osVersion;
  }
  return {
    ...(Object.keys(userChanges).length > 0 ? { user: userChanges } : {}),
    ...(Object.keys(computerChanges).length > 0 ? { computer: computerChanges } : {}),
  };
}

async function updateVersions(
  db: Db,
  current: { id: string; computer_id: string },
  changes: VersionChanges,
  now: Date,
) {
  const at = toDbTime(now);
  if (changes.user) {
    await db
      .updateTable('computer_users')
      .set({ ...changes.user, updated_at: at })
      .where('id', '=', current.id)
      .execute();
  }
  if (changes.computer) {
    await db
      .updateTable('computers')
      .set({ ...changes.computer, updated_at: at })
      .where('id', '=', current.computer_id)
      .execute();
  }
}

const MAX_BUNDLE_ID = 255;

/** Apps the Mac saw that the catalogue does not know yet, counted for the operator. */
async function recordNamedApps(ctx: DeviceContext, apps: NonNullable<CheckInInput['namedApps']>) {
  const bundleIds = [...new Set(apps.map((app) => app.bundleId))];
  const identified = new Set(
    (
      await ctx.db
        .selectFrom('app_bundle_ids')
        .select('bundle_id')
        .where('bundle_id', 'in', bundleIds)
        .execute()
    ).map((row) => row.bundle_id),
  );
  const at = toDbTime(ctx.clock.now());
  const seen = new Set<string>();
  for (const app of apps) {
    if (identified.has(app.bundleId) || seen.has(app.bundleId)) continue;
    // no real bundle id is this long, and the column is uniquely indexed
    if (app.bundleId.length > MAX_BUNDLE_ID) continue;
    seen.add(app.bundleId);
    const names = {
      bundle_name: app.bundleName ?? null,
      localized_name: app.localizedName ?? null,
      launchable: app.launchable === undefined ? null : toDbBool(app.launchable),
    };
    await ctx.db
      .insertInto('unidentified_apps')
      .values({
        id: newToken(),
        bundle_id: app.bundleId,
        ...names,
        count: 1,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('bundle_id').doUpdateSet((eb) => ({
          count: eb('unidentified_apps.count', '+', 1),
          updated_at: at,
        })),
      )
      .execute();
  }
}

const ACCOUNT_STATUS: Record<SubscriptionStatus, AdminAccountStatus> = {
  paid: 'active',
  trialing: 'active',
  trialExpiringSoon: 'active',
  complimentary: 'active',
  overdue: 'needsAttention',
  pendingEmailVerification: 'inactive',
  unpaid: 'inactive',
  pendingAccountDeletion: 'inactive',
};

async function accountStatus(db: Db, parentId: string): Promise<AdminAccountStatus> {
  const parent = await db
    .selectFrom('parents')
    .select('subscription_status')
    .where('id', '=', parentId)
    .executeTakeFirstOrThrow();
  return ACCOUNT_STATUS[parent.subscription_status];
}

/**
 * The app manifest and browser list are the same for every Mac and change only with a migration
 * (nothing else writes the catalogue tables), so each database's copy is read once per process.
 */
const catalogues = new WeakMap<Db, Promise<{ appManifest: AppManifest; browsers: Browser[] }>>();

function catalogueOf(db: Db) {
  let catalogue = catalogues.get(db);
  if (!catalogue) {
    catalogue = Promise.all([appManifest(db), browsers(db)]).then(([manifest, list]) => ({
      appManifest: manifest,
      browsers: list,
    }));
    // a failed read is not remembered
    catalogue.catch(() => catalogues.delete(db));
    catalogues.set(db, catalogue);
  }
  return catalogue;
}

async function appManifest(db: Db): Promise<AppManifest> {
  const apps = await db
    .selectFrom('identified_apps as a')
    .leftJoin('app_categories as c', 'c.id', 'a.category_id')
    .select(['a.id', 'a.slug', 'a.name', 'c.name as category'])
    .orderBy('a.slug')
    .execute();
  const bundleIds = await db
    .selectFrom('app_bundle_ids')
    .select(['identified_app_id', 'bundle_id'])
    .orderBy('bundle_id')
    .execute();
  const byApp = new Map<string, string[]>();
  for (const row of bundleIds) {
    byApp.set(row.identified_app_id, [...(byApp.get(row.identified_app_id) ?? []), row.bundle_id]);
  }
  return {
    apps: apps.map((app) => ({
      slug: app.slug,
      name: app.name,
      bundleIds: byApp.get(app.id) ?? [],
      ...(app.category ? { category: app.category } : {}),
    })),
  };
}

/** Browser matchers, named after the catalogue app with that bundle id when there is one. */
async function browsers(db: Db): Promise<Browser[]> {
  const rows = await db
    .selectFrom('browsers as b')
    .leftJoin('app_bundle_ids as ab', 'ab.bundle_id', 'b.match')
    .leftJoin('identified_apps as a', 'a.id', 'ab.identified_app_id')
    .select(['b.match', 'a.name'])
    .orderBy('b.match')
    .execute();
  return rows.map((row) => ({ name: row.name ?? row.match, bundleId: row.match }));
}

/** Each keychain assigned to the child, with its unexpired keys only, and the next expiration. */
async function assignedKeychains(
  db: Db,
  childId: string,
  now: Date,
): Promise<{ keychains: CheckInKeychain[]; nextExpiration: number }> {
  const assignments = await db
    .selectFrom('child_keychains')
    .select(['keychain_id', 'schedule'])
    .where('child_id', '=', childId)
    .orderBy('created_at')
    .orderBy('keychain_id')
    .execute();
  if (assignments.length === 0) return { keychains: [], nextExpiration: Number.POSITIVE_INFINITY };
  const at = toDbTime(now);
  const keys = await db
    .selectFrom('keys')
    .select(['id', 'keychain_id', 'key', 'deleted_at'])
    .where(
      'keychain_id',
      'in',
      assignments.map((a) => a.keychain_id),
    )
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', at)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  let nextExpiration = Number.POSITIVE_INFINITY;
  for (const key of keys) {
    if (key.deleted_at === null) continue;
    const at = Date.parse(key.deleted_at);
    if (at < nextExpiration) nextExpiration = at;
  }
  const keychains = assignments.map((assignment) => {
    const keychain: CheckInKeychain = {
      id: assignment.keychain_id,
      keys: keys
        .filter((key) => key.keychain_id === assignment.keychain_id)
        .map((key) => ({ id: key.id, key: fromDbJson<SharedKey>(key.key) })),
    };
    if (assignment.schedule !== null) {
      keychain.schedule = fromDbJson<RuleSchedule>(assignment.schedule);
    }
    return keychain;
  });
  return { keychains, nextExpiration };
}
