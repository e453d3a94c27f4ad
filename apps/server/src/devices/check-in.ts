import { billedStatus } from '../accounts/subscription-status.ts';
import type {
  AdminAccountStatus,
  AppManifest,
  BrowserMatch,
  CheckInInput,
  CheckInKeychain,
  CheckInOutput,
  ResolvedFilterSuspension,
  ResolvedUnlockRequest,
} from '@keyward/contract/device';
import type { RuleSchedule, SharedKey } from '@keyward/contract/shared';
import { toSwiftIsoDate } from '@keyward/contract/swift';
import { latestReleaseFor } from '@keyward/domain/app-update';
import type { Db } from '../db/database.ts';
import type { SubscriptionStatus } from '../db/schema.ts';
import { fromDbBool, fromDbJson, toDbBool, toDbTime } from '../db/values.ts';
import type { DeviceContext } from '../pairql/context.ts';
import { newToken } from '../services/tokens.ts';
import { loadResolvedSuspension, loadResolvedUnlockRequests } from './resolved-requests.ts';
import { loadUserData } from './user-data.ts';

// server-behaviour §4.2: what a Mac's check-in reads and writes, shared by CheckIn_v2 and the
// deprecated CheckIn of app versions 2.0.4 to 2.4.0. The answer's shapes are the app's
// (docs/device-wire.md).

/** The versions the Mac reports, written when they changed; the apps it saw, counted. */
export async function recordCheckIn(ctx: DeviceContext, input: CheckInInput): Promise<void> {
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
      await updateVersions(trx, computerUser, changes, ctx.clock.now());
      if (input.namedApps?.length)
        await countUnidentifiedApps({ ...ctx, db: trx }, input.namedApps);
    });
  }
}

/** The decisions the Mac waits for: only those it asked about, and only once decided. */
export async function decidedRequests(
  ctx: DeviceContext,
  input: CheckInInput,
): Promise<{
  resolvedFilterSuspension?: ResolvedFilterSuspension;
  resolvedUnlockRequests?: ResolvedUnlockRequest[];
}> {
  const decided: Awaited<ReturnType<typeof decidedRequests>> = {};
  if (input.pendingFilterSuspension !== undefined) {
    const suspension = await loadResolvedSuspension(
      ctx.db,
      ctx.computerUserId,
      input.pendingFilterSuspension,
    );
    if (suspension) decided.resolvedFilterSuspension = suspension;
  }
  if (input.pendingUnlockRequests !== undefined) {
    decided.resolvedUnlockRequests = await loadResolvedUnlockRequests(
      ctx.db,
      ctx.computerUserId,
      input.pendingUnlockRequests,
    );
  }
  return decided;
}

/**
 * The answer but for its per-request fields and the token: the same for every check-in of this
 * Mac and app version until the family's data (or the releases) change or a key expires.
 * `userData` comes last, so the token can be added at its end (CheckIn_v2's read cache).
 */
export type StablePart = Omit<
  CheckInOutput,
  'trustedTime' | 'resolvedFilterSuspension' | 'resolvedUnlockRequests' | 'userData'
> & { userData: Omit<CheckInOutput['userData'], 'token'> };

/** The answer but for its per-request fields, and the first instant it can change with no write. */
export async function stablePart(
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
  const computerUser = await ctx.db
    .selectFrom('computer_users')
    .select('created_at')
    .where('id', '=', ctx.computerUserId)
    .executeTakeFirstOrThrow();
  const part: StablePart = {
    adminAccountStatus: await accountStatus(ctx, ctx.parentId),
    ...(await catalogueOf(ctx.db)),
    keychains,
    latestRelease,
    updateReleaseChannel: channel,
    userData: {
      ...(await loadUserData(ctx.db, ctx.childId)),
      deviceId: ctx.computerUserId,
      connectedAt: toSwiftIsoDate(computerUser.created_at),
    },
  };
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
    input.userIsAdmin !== undefined &&
    (current.is_admin === null || input.userIsAdmin !== fromDbBool(current.is_admin))
  ) {
    userChanges.is_admin = toDbBool(input.userIsAdmin);
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

export interface SeenApp {
  bundleId: string;
  bundleName?: string;
  localizedName?: string;
  launchable?: boolean;
  /** how many times it was seen (1 when absent) */
  count?: number;
}

/** Apps the Mac saw that the catalogue does not know yet, counted for the operator. */
export async function countUnidentifiedApps(ctx: DeviceContext, apps: readonly SeenApp[]) {
  const bundleIds = [...new Set(apps.map((app) => app.bundleId))];
  if (bundleIds.length === 0) return;
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
    const count = Math.max(1, Math.min(app.count ?? 1, 1_000_000));
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
        count,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('bundle_id').doUpdateSet((eb) => ({
          count: eb('unidentified_apps.count', '+', count),
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

async function accountStatus(ctx: DeviceContext, parentId: string): Promise<AdminAccountStatus> {
  const parent = await ctx.db
    .selectFrom('parents')
    .select('subscription_status')
    .where('id', '=', parentId)
    .executeTakeFirstOrThrow();
  return ACCOUNT_STATUS[billedStatus(parent.subscription_status, ctx.config.billing)];
}

/**
 * The app manifest and browser list are the same for every Mac and change only with a migration
 * (nothing else writes the catalogue tables), so each database's copy is read once per process.
 */
const catalogues = new WeakMap<
  Db,
  Promise<{ appManifest: AppManifest; browsers: BrowserMatch[] }>
>();

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

/** The app's AppIdManifest: each identified app's bundle ids and name, each category's apps. */
async function appManifest(db: Db): Promise<AppManifest> {
  const apps = await db
    .selectFrom('identified_apps as a')
    .leftJoin('app_categories as c', 'c.id', 'a.category_id')
    .select(['a.id', 'a.slug', 'a.name', 'c.slug as category'])
    .orderBy('a.slug')
    .execute();
  const bundleIds = await db
    .selectFrom('app_bundle_ids')
    .select(['identified_app_id', 'bundle_id'])
    .orderBy('bundle_id')
    .execute();
  const slugOf = new Map(apps.map((app) => [app.id, app.slug]));
  const manifest: AppManifest = { apps: {}, displayNames: {}, categories: {} };
  for (const app of apps) {
    manifest.apps[app.slug] = [];
    manifest.displayNames[app.slug] = app.name;
    if (app.category) {
      manifest.categories[app.category] = [...(manifest.categories[app.category] ?? []), app.slug];
    }
  }
  for (const row of bundleIds) {
    const slug = slugOf.get(row.identified_app_id);
    if (slug !== undefined) manifest.apps[slug]!.push(row.bundle_id);
  }
  return manifest;
}

/** The app's BrowserMatch list: every known browser, by bundle id. */
async function browsers(db: Db): Promise<BrowserMatch[]> {
  const rows = await db.selectFrom('browsers').select('match').orderBy('match').execute();
  return rows.map((row) => ({ bundleId: { _0: row.match } }));
}

/** Each keychain assigned to the child, with its unexpired keys only, and the next expiration. */
export async function assignedKeychains(
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
