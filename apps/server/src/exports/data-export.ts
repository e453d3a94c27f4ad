import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { emailPerson } from '../accounts/second-factor.ts';
import { screenshotsOf } from '../activity/activity.ts';
import { addMs, fromDbBool, fromDbJson, HOUR, MINUTE, toDbTime } from '../db/values.ts';
import type { RequestContext } from '../pairql/context.ts';

// The family's data export (issue 12): a ZIP of everything the family account holds, built in the
// background after RequestDataExport, with its progress in `data_exports`, kept in the object store
// (services/storage.ts: the S3 bucket every instance reads, else this instance's DATA_DIR/exports)
// and downloaded through a signed, expiring link (GET /data-export/{id}, http/data-export.ts).
// Secrets never go in: password hashes, token hashes, Slack tokens, TOTP secrets, recovery codes,
// passkey keys. Screenshots are read through the screenshot storage.

export const EXPORT_LINK_HOURS = 24;
/** A build that has not moved for this long died with its server: reported as failed. */
export const STALE_BUILD_MS = 30 * MINUTE;

type ExportContext = Pick<RequestContext, 'db' | 'config' | 'clock' | 'services' | 'log'> & {
  dashboardUrl: string;
};

const running = new Map<string, Promise<void>>();

/** Resolves when every export started by this process has finished (tests, shutdown). */
export async function dataExportsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

function signature(hmacKey: Buffer, exportId: string, expires: number): string {
  return createHmac('sha256', hmacKey).update(`data-export\n${exportId}\n${expires}`).digest('hex');
}

export function signedExportUrl(
  baseUrl: string,
  hmacKey: Buffer,
  exportId: string,
  expiresAt: Date,
): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${baseUrl}/data-export/${exportId}?expires=${expires}&signature=${signature(hmacKey, exportId, expires)}`;
}

export function verifyExportSignature(
  hmacKey: Buffer,
  exportId: string,
  expires: unknown,
  given: unknown,
  now: Date,
): 'ok' | 'badSignature' | 'expired' {
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'badSignature';
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return 'badSignature';
  const expected = Buffer.from(signature(hmacKey, exportId, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return 'badSignature';
  if (Number(expires) * 1000 < now.getTime()) return 'expired';
  return 'ok';
}

/** Starts building in the background; the request that asked for it returns at once. */
export function startDataExport(ctx: ExportContext, exportId: string, parentId: string): void {
  const job = buildDataExport(ctx, exportId, parentId)
    .catch(async (error) => {
      ctx.log.error({ err: error, exportId }, 'data export failed');
      await ctx.db
        .updateTable('data_exports')
        .set({ status: 'failed', error: String(error).slice(0, 500), updated_at: now(ctx) })
        .where('id', '=', exportId)
        .execute()
        .catch(() => undefined);
    })
    .finally(() => running.delete(exportId));
  running.set(exportId, job);
}

const now = (ctx: ExportContext) => toDbTime(ctx.clock.now());

/** Keys that never leave the server, whatever table they are in. */
const SECRET_KEY = /password|token|secret|hash|encrypted|public_key|code_hash|signature/i;

/** A row as the export shows it: camelCase keys, JSON columns parsed, secrets dropped. */
function clean(row: Record<string, unknown>, json: string[] = [], bools: string[] = []) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (SECRET_KEY.test(key)) continue;
    const camel = key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    if (json.includes(key)) out[camel] = value === null ? null : stripSecrets(fromDbJson(value));
    else if (bools.includes(key)) out[camel] = value === null ? null : fromDbBool(value);
    else out[camel] = value;
  }
  return out;
}

function stripSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_KEY.test(key))
        .map(([key, v]) => [key, stripSecrets(v)]),
    );
  }
  return value;
}

async function buildDataExport(ctx: ExportContext, exportId: string, parentId: string) {
  const { db } = ctx;
  const setProgress = async (progress: number) => {
    await db
      .updateTable('data_exports')
      .set({
        status: 'building',
        progress: Math.min(100, Math.floor(progress)),
        updated_at: now(ctx),
      })
      .where('id', '=', exportId)
      .execute();
  };
  await setProgress(0);

  const store = ctx.services.storage.exports;
  mkdirSync(store.workDirectory, { recursive: true });
  const partial = path.join(store.workDirectory, `${exportId}.zip.part`);
  try {
    await writeZip(ctx, partial, parentId, setProgress);
    const { size } = await stat(partial);
    const storageKey = await store.save(exportId, partial);
    const expiresAt = addMs(ctx.clock.now(), EXPORT_LINK_HOURS * HOUR);
    const stored = await db
      .updateTable('data_exports')
      .set({
        status: 'ready',
        progress: 100,
        storage_key: storageKey,
        size_bytes: size,
        expires_at: toDbTime(expiresAt),
        updated_at: now(ctx),
      })
      .where('id', '=', exportId)
      .executeTakeFirst();
    if (Number(stored.numUpdatedRows) !== 1) {
      // the export was withdrawn while it was built (its parent removed): keep no copy
      await store.remove([exportId]);
      return;
    }

    const row = await db
      .selectFrom('data_exports')
      .select('person_id')
      .where('id', '=', exportId)
      .executeTakeFirstOrThrow();
    await emailPerson(ctx, row.person_id, 'data-export-ready', {
      url: signedExportUrl(ctx.config.publicUrl, ctx.config.hmacKey, exportId, expiresAt),
      expiresInHours: EXPORT_LINK_HOURS,
    });
  } finally {
    // a build that failed leaves no partial file (save consumed a finished one)
    await rm(partial, { force: true });
  }
}

/** Writes the family's ZIP to `file`, reporting progress on the way. */
async function writeZip(
  ctx: ExportContext,
  file: string,
  parentId: string,
  setProgress: (progress: number) => Promise<void>,
) {
  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(file, { mode: 0o600 }));
  try {
    await addFamily(ctx, zip, parentId, setProgress);
  } catch (error) {
    // close the file before the caller removes it
    (zip.outputStream as Readable).destroy();
    await written.catch(() => undefined);
    throw error;
  }
  zip.end();
  await written;
}

/** Adds every file of the family's export to the ZIP. */
async function addFamily(
  ctx: ExportContext,
  zip: ZipFile,
  parentId: string,
  setProgress: (progress: number) => Promise<void>,
) {
  const { db } = ctx;
  const mtime = ctx.clock.now();
  const addJson = (name: string, value: unknown) =>
    zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), name, { mtime });

  // --- account and parents
  const account = await db
    .selectFrom('parents')
    .selectAll()
    .where('id', '=', parentId)
    .executeTakeFirstOrThrow();
  const coParents = await db
    .selectFrom('co_parents')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .execute();
  const persons = [account.id, ...coParents.map((p) => String(p.id))];
  const [totp, passkeys] = await Promise.all([
    db
      .selectFrom('totp_factors')
      .select(['person_id', 'confirmed_at'])
      .where('parent_id', '=', parentId)
      .execute(),
    db
      .selectFrom('passkeys')
      .select(['id', 'person_id', 'name', 'created_at', 'last_used_at'])
      .where('parent_id', '=', parentId)
      .execute(),
  ]);
  addJson('account.json', {
    account: clean(account),
    parents: [
      { id: account.id, email: account.email, role: 'owner', status: 'active' },
      ...coParents.map((p) => ({ ...clean(p), role: 'coParent' })),
    ],
    signInSecurity: persons.map((personId) => ({
      personId,
      authenticatorApp: totp.some((t) => t.person_id === personId && t.confirmed_at !== null),
      passkeys: passkeys.filter((p) => p.person_id === personId).map((p) => clean(p)),
    })),
  });

  // --- children and their settings
  const children = await db
    .selectFrom('children')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .execute();
  const childIds = children.map((c) => c.id);
  const inChildren = <T>(load: (ids: string[]) => Promise<T[]>) =>
    childIds.length === 0 ? Promise.resolve([] as T[]) : load(childIds);
  const [childKeychains, blockedApps] = await Promise.all([
    inChildren((ids) =>
      db.selectFrom('child_keychains').selectAll().where('child_id', 'in', ids).execute(),
    ),
    inChildren((ids) =>
      db.selectFrom('blocked_mac_apps').selectAll().where('child_id', 'in', ids).execute(),
    ),
  ]);
  addJson('children.json', {
    children: children.map((child) => ({
      ...clean(
        child,
        ['downtime'],
        ['keylogging_enabled', 'screenshots_enabled', 'show_suspension_activity'],
      ),
      keychains: childKeychains
        .filter((k) => k.child_id === child.id)
        .map((k) => clean(k, ['schedule'])),
      blockedApps: blockedApps
        .filter((a) => a.child_id === child.id)
        .map((a) => clean(a, ['schedule'])),
    })),
  });
  await setProgress(10);

  // --- computers, their users, iOS devices
  const computers = await db
    .selectFrom('computers')
    .selectAll()
    .where('parent_id', '=', parentId)
    .execute();
  const computerUsers = await inChildren((ids) =>
    db.selectFrom('computer_users').selectAll().where('child_id', 'in', ids).execute(),
  );
  const computerUserIds = computerUsers.map((u) => u.id);
  const inUsers = <T>(load: (ids: string[]) => Promise<T[]>) =>
    computerUserIds.length === 0 ? Promise.resolve([] as T[]) : load(computerUserIds);
  addJson('computers.json', {
    computers: computers.map((computer) => ({
      ...clean(computer),
      users: computerUsers
        .filter((u) => u.computer_id === computer.id)
        .map((u) => clean(u, [], ['is_admin'])),
    })),
  });
  const iosDevices = await inChildren((ids) =>
    db.selectFrom('ios_devices').selectAll().where('child_id', 'in', ids).execute(),
  );
  const deviceIds = iosDevices.map((d) => d.id);
  const inDevices = <T>(load: (ids: string[]) => Promise<T[]>) =>
    deviceIds.length === 0 ? Promise.resolve([] as T[]) : load(deviceIds);
  const [deviceGroups, deviceRules, deviceDomains] = await Promise.all([
    inDevices((ids) =>
      db.selectFrom('ios_device_block_groups').selectAll().where('device_id', 'in', ids).execute(),
    ),
    inDevices((ids) =>
      db.selectFrom('ios_block_rules').selectAll().where('device_id', 'in', ids).execute(),
    ),
    inDevices((ids) =>
      db.selectFrom('ios_web_policy_domains').selectAll().where('device_id', 'in', ids).execute(),
    ),
  ]);
  addJson('ios-devices.json', {
    iosDevices: iosDevices.map((device) => ({
      ...clean(device),
      blockGroupIds: deviceGroups
        .filter((g) => g.device_id === device.id)
        .map((g) => g.block_group_id),
      blockRules: deviceRules
        .filter((r) => r.device_id === device.id)
        .map((r) => clean(r, ['rule'])),
      webPolicyDomains: deviceDomains.filter((d) => d.device_id === device.id).map((d) => d.domain),
    })),
  });
  await setProgress(20);

  // --- keychains and keys
  const keychains = await db
    .selectFrom('keychains')
    .selectAll()
    .where('parent_id', '=', parentId)
    .execute();
  const keys =
    keychains.length === 0
      ? []
      : await db
          .selectFrom('keys')
          .selectAll()
          .where(
            'keychain_id',
            'in',
            keychains.map((k) => k.id),
          )
          .execute();
  addJson('keychains.json', {
    keychains: keychains.map((keychain) => ({
      ...clean(keychain, [], ['is_public']),
      keys: keys.filter((k) => k.keychain_id === keychain.id).map((k) => clean(k, ['key'])),
    })),
  });

  // --- requests
  const [unlockRequests, macSuspensions, iosSuspensions, keychainRequests] = await Promise.all([
    inUsers((ids) =>
      db.selectFrom('unlock_requests').selectAll().where('computer_user_id', 'in', ids).execute(),
    ),
    inUsers((ids) =>
      db
        .selectFrom('mac_suspend_filter_requests')
        .selectAll()
        .where('computer_user_id', 'in', ids)
        .execute(),
    ),
    inDevices((ids) =>
      db
        .selectFrom('ios_suspend_filter_requests')
        .selectAll()
        .where('device_id', 'in', ids)
        .execute(),
    ),
    db.selectFrom('keychain_requests').selectAll().where('parent_id', '=', parentId).execute(),
  ]);
  addJson('requests.json', {
    unlockRequests: unlockRequests.map((r) => clean(r)),
    macSuspendFilterRequests: macSuspensions.map((r) => clean(r, ['scope'])),
    iosSuspendFilterRequests: iosSuspensions.map((r) => clean(r)),
    publicKeychainRequests: keychainRequests.map((r) => clean(r)),
  });
  await setProgress(30);

  // --- notifications, security events, audit log
  const [methods, rules, events] = await Promise.all([
    db.selectFrom('notification_methods').selectAll().where('parent_id', '=', parentId).execute(),
    db.selectFrom('notifications').selectAll().where('parent_id', '=', parentId).execute(),
    db
      .selectFrom('security_events')
      .selectAll()
      .where('parent_id', '=', parentId)
      .orderBy('created_at')
      .execute(),
  ]);
  addJson('notifications.json', {
    methods: methods.map((m) => clean(m, ['config'])),
    rules: rules.map((r) => clean(r)),
  });
  addJson(
    'security-events.json',
    events.map((e) => clean(e)),
  );
  const audit = await db
    .selectFrom('audit_log')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .execute();
  addJson(
    'audit-log.json',
    audit.map((row) => clean(row, ['changes'])),
  );
  await setProgress(35);

  // --- activity: keystroke lines and screenshots (metadata and the images themselves)
  const [keystrokes, screenshots] = await Promise.all([
    inUsers((ids) =>
      db
        .selectFrom('keystroke_lines')
        .selectAll()
        .where('computer_user_id', 'in', ids)
        .orderBy('created_at')
        .execute(),
    ),
    computerUserIds.length + deviceIds.length === 0
      ? []
      : db
          .selectFrom('screenshots')
          .selectAll()
          .where((eb) => screenshotsOf(eb, { computerUserIds, iosDeviceIds: deviceIds }))
          // an activity item only once its image is stored (issue 19)
          .where('uploaded_at', 'is not', null)
          .orderBy('created_at')
          .execute(),
  ]);
  const screenshotEntries: Record<string, unknown>[] = [];
  for (const [index, shot] of screenshots.entries()) {
    const bytes = await ctx.services.storage.read(shot.object_key);
    const fileName = bytes ? `screenshots/${shot.id}.jpg` : null;
    if (bytes && fileName) zip.addBuffer(bytes, fileName, { mtime, compress: false });
    const {
      object_key: _key,
      upload_expires_at: _expires,
      upload_started_at: _started,
      ...rest
    } = shot;
    screenshotEntries.push({ ...clean(rest, [], ['filter_suspended']), file: fileName });
    if (index % 20 === 19) await setProgress(35 + (60 * (index + 1)) / screenshots.length);
  }
  addJson('activity.json', {
    keystrokeLines: keystrokes.map((k) => clean(k, [], ['filter_suspended'])),
    screenshots: screenshotEntries,
  });
  zip.addBuffer(
    Buffer.from(
      [
        `${ctx.config.appName}: your family's data, exported ${ctx.clock.now().toISOString()}.`,
        '',
        'account.json: the account, its parents and their sign-in methods (never passwords or keys)',
        'children.json, computers.json, ios-devices.json: children, their settings and devices',
        'keychains.json: keychains and their keys',
        'requests.json: unlock and filter-suspension requests',
        'notifications.json: notification methods and rules (Slack tokens left out)',
        'security-events.json, audit-log.json: what happened on the account',
        'activity.json and screenshots/: activity review items and the screenshot images',
        '',
      ].join('\n'),
    ),
    'README.txt',
    { mtime },
  );
}

/** Removes the stored ZIPs of the family's expired exports (called when a new one is asked for). */
export async function removeExpiredExports(ctx: ExportContext, parentId: string) {
  const expired = await ctx.db
    .selectFrom('data_exports')
    .select('id')
    .where('parent_id', '=', parentId)
    .where('expires_at', '<', now(ctx))
    .where('storage_key', 'is not', null)
    .execute();
  for (const row of expired) {
    await ctx.services.storage.exports.remove([row.id]);
    await ctx.db
      .updateTable('data_exports')
      .set({ storage_key: null })
      .where('id', '=', row.id)
      .execute();
  }
}
