import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  BrowserKeychain,
  BrowserSuspension,
  BrowserSuspensionRequest,
  BrowserUnlockRequest,
} from '@keyward/contract/browser';
import { parseExtraMonitoringKey } from '@keyward/domain/extra-monitoring';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { RequestStatus } from '../db/schema.ts';
import type { RuleSchedule, SharedKey } from '@keyward/contract/shared';
import { fromDbBool, fromDbJson, toDbTime } from '../db/values.ts';

// Issue 22: Keyward for Chrome. A browser the extension runs in is a computer of kind `browser`
// with one computer user (the child): requests, activity, presence and security events are the
// same rows as a Mac's. What is the browser's own lives here: its name, the views of its requests
// on its wire, the suspension it is under, and the key of its uninstall link.

/** Browsers of the app catalogue (migration 0002), by the name the extension reports. */
const CATALOGUED_BROWSERS: Readonly<Record<string, string>> = {
  chrome: 'com.google.Chrome',
  chromium: 'org.chromium.Chromium',
  edge: 'com.microsoft.edgemac',
  brave: 'com.brave.Browser',
  opera: 'com.operasoftware.Opera',
  vivaldi: 'com.vivaldi.Vivaldi',
};

/**
 * The app id an unlock request of this browser carries: the browser's bundle id in the app
 * catalogue when it has one (so the dashboard names it, and counts the request as a website's),
 * else `browser:<name>`.
 */
export function browserAppId(browser: string): string {
  const name = browser.trim().toLowerCase();
  return CATALOGUED_BROWSERS[name] ?? `browser:${name.replace(/\s+/g, '-')}`;
}

/** The key of the uninstall link: only the server that connected the browser can make it. */
export function uninstallKey(config: Pick<Config, 'hmacKey'>, computerUserId: string): string {
  return createHmac('sha256', config.hmacKey)
    .update(`browser-uninstalled:${computerUserId}`)
    .digest('base64url');
}

export function isUninstallKey(
  config: Pick<Config, 'hmacKey'>,
  computerUserId: string,
  key: string,
): boolean {
  const expected = Buffer.from(uninstallKey(config, computerUserId));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function uninstallUrl(
  config: Pick<Config, 'hmacKey' | 'publicUrl'>,
  computerUserId: string,
) {
  const url = new URL('/browser-filter/uninstalled', config.publicUrl);
  url.searchParams.set('device', computerUserId);
  url.searchParams.set('key', uninstallKey(config, computerUserId));
  return url.toString();
}

interface UnlockRequestRow {
  id: string;
  url: string | null;
  hostname: string | null;
  status: RequestStatus;
  response_comment: string | null;
  created_at: string;
}

export function browserUnlockRequestOf(row: UnlockRequestRow): BrowserUnlockRequest {
  return {
    id: row.id,
    url: row.url ?? row.hostname ?? '',
    status: row.status,
    ...(row.response_comment ? { responseComment: row.response_comment } : {}),
    createdAt: new Date(row.created_at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** This browser's unlock requests among `ids` (others' ids are left out), oldest first. */
export async function loadBrowserUnlockRequests(
  db: Db,
  computerUserId: string,
  ids: readonly string[],
): Promise<BrowserUnlockRequest[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('unlock_requests')
    .select(['id', 'url', 'hostname', 'status', 'response_comment', 'created_at'])
    .where('computer_user_id', '=', computerUserId)
    .where('id', 'in', [...new Set(ids)])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(browserUnlockRequestOf);
}

interface SuspensionRow {
  id: string;
  status: RequestStatus;
  duration: number;
  requested_duration: number | null;
  extra_monitoring: string | null;
  response_comment: string | null;
  updated_at: string;
}

const isoSeconds = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The suspension an accepted request grants: from the decision, for the granted duration. */
function suspensionOf(row: SuspensionRow, childKeylogging: boolean): BrowserSuspension {
  const extra = row.extra_monitoring ? parseExtraMonitoringKey(row.extra_monitoring) : undefined;
  // whole seconds, rounded up: a suspension never ends before the parent's decision said
  const endsAt = Math.ceil((Date.parse(row.updated_at) + row.duration * 1000) / 1000) * 1000;
  return {
    endsAt: isoSeconds(endsAt),
    ...(extra?.screenshotsFrequency ? { screenshotsEverySeconds: extra.screenshotsFrequency } : {}),
    keylogging: childKeylogging || extra?.addsKeylogging === true,
  };
}

/** `requestedSeconds`: what was asked for, before and after the decision (issue 32); what was
 * granted is the suspension's `endsAt`. */
export function browserSuspensionRequestOf(
  row: SuspensionRow,
  childKeylogging: boolean,
): BrowserSuspensionRequest {
  return {
    id: row.id,
    status: row.status,
    requestedSeconds: row.requested_duration ?? row.duration,
    ...(row.response_comment ? { responseComment: row.response_comment } : {}),
    ...(row.status === 'accepted' ? { suspension: suspensionOf(row, childKeylogging) } : {}),
  };
}

const SUSPENSION_COLUMNS = [
  'id',
  'status',
  'duration',
  'requested_duration',
  'extra_monitoring',
  'response_comment',
  'updated_at',
] as const;

/** One of this browser's suspension requests, or undefined when it is not this browser's. */
export async function loadBrowserSuspensionRequest(
  db: Db,
  computerUserId: string,
  id: string,
): Promise<BrowserSuspensionRequest | undefined> {
  const row = await db
    .selectFrom('mac_suspend_filter_requests as r')
    .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .select(SUSPENSION_COLUMNS.map((column) => `r.${column}` as const))
    .select('c.keylogging_enabled')
    .where('r.id', '=', id)
    .where('r.computer_user_id', '=', computerUserId)
    .executeTakeFirst();
  return row ? browserSuspensionRequestOf(row, fromDbBool(row.keylogging_enabled)) : undefined;
}

/** The suspension this browser is under at `now` (the latest accepted one still running). */
export async function activeBrowserSuspension(
  db: Db,
  computerUserId: string,
  childKeylogging: boolean,
  now: Date,
): Promise<BrowserSuspension | undefined> {
  const accepted = await db
    .selectFrom('mac_suspend_filter_requests')
    .select([...SUSPENSION_COLUMNS])
    .where('computer_user_id', '=', computerUserId)
    .where('status', '=', 'accepted')
    .orderBy('updated_at', 'desc')
    .limit(5)
    .execute();
  const running = accepted
    .map((row) => suspensionOf(row, childKeylogging))
    .filter((suspension) => Date.parse(suspension.endsAt) > now.getTime())
    .sort((a, b) => Date.parse(b.endsAt) - Date.parse(a.endsAt));
  return running[0];
}

/** The child's keychains with their schedules, names and unexpired keys (with expirations). */
export async function browserKeychains(
  db: Db,
  childId: string,
  now: Date,
): Promise<BrowserKeychain[]> {
  const assignments = await db
    .selectFrom('child_keychains as ck')
    .innerJoin('keychains as k', 'k.id', 'ck.keychain_id')
    .select(['ck.keychain_id', 'ck.schedule', 'k.name'])
    .where('ck.child_id', '=', childId)
    .orderBy('ck.created_at')
    .orderBy('ck.keychain_id')
    .execute();
  if (assignments.length === 0) return [];
  const keys = await db
    .selectFrom('keys')
    .select(['id', 'keychain_id', 'key', 'deleted_at'])
    .where(
      'keychain_id',
      'in',
      assignments.map((assignment) => assignment.keychain_id),
    )
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', toDbTime(now))]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return assignments.map((assignment) => ({
    id: assignment.keychain_id,
    name: assignment.name,
    ...(assignment.schedule === null
      ? {}
      : { schedule: fromDbJson<RuleSchedule>(assignment.schedule) }),
    keys: keys
      .filter((key) => key.keychain_id === assignment.keychain_id)
      .map((key) => ({
        id: key.id,
        key: fromDbJson<SharedKey>(key.key),
        // a key's expiration is the moment it is deleted (a future deleted_at)
        ...(key.deleted_at === null ? {} : { expiration: isoSeconds(Date.parse(key.deleted_at)) }),
      })),
  }));
}
