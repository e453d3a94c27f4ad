import type { ReleaseChannel } from '@keyward/contract/shared';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { DialectName } from '../db/migrations/types.ts';
import { GLOBAL_VERSION_KEY } from '../db/migrations/0014_family_versions.ts';
import { toDbTime } from '../db/values.ts';
import type { MacComputerSnapshot } from '../pairql/context.ts';
import type { Clock } from '../services/clock.ts';
import { hashToken, isUuid } from '../services/tokens.ts';

export interface MacPrincipal {
  computerUserId: string;
  childId: string;
  parentId: string;
}

/**
 * The computer user an `X-UserToken` stands for (server-behaviour §2.8), or undefined when the
 * token is missing, unknown, past its grace period, or its computer user was deleted. Issue 31: a
 * Mac's only; a browser's token (Keyward for Chrome) stands for nothing on the Mac's paths.
 */
export async function findMacPrincipal(
  db: Db,
  clock: Clock,
  header: string | string[] | undefined,
): Promise<MacPrincipal | undefined> {
  if (typeof header !== 'string' || !isUuid(header.trim())) return undefined;
  const now = toDbTime(clock.now());
  const row = await db
    .selectFrom('mac_app_tokens as t')
    .innerJoin('computer_users as cu', 'cu.id', 't.computer_user_id')
    .innerJoin('children as c', 'c.id', 't.child_id')
    .innerJoin('computers as m', 'm.id', 'cu.computer_id')
    .select(['t.computer_user_id', 't.child_id', 'c.parent_id'])
    .where('t.token_hash', '=', hashToken(header))
    .where('m.kind', '!=', 'browser')
    .where((eb) => eb.or([eb('t.deleted_at', 'is', null), eb('t.deleted_at', '>', now)]))
    .executeTakeFirst();
  return row
    ? { computerUserId: row.computer_user_id, childId: row.child_id, parentId: row.parent_id }
    : undefined;
}

/**
 * findMacPrincipal for a PairQL request, with its computer as read with the token. On PostgreSQL
 * the same query runs inside keyward_mac_principal (migration 0015), which keeps its plan.
 */
export async function findMacRequestPrincipal(
  db: Db,
  dialect: DialectName,
  clock: Clock,
  header: string | string[] | undefined,
): Promise<(MacPrincipal & { computer: MacComputerSnapshot }) | undefined> {
  if (typeof header !== 'string' || !isUuid(header.trim())) return undefined;
  const now = toDbTime(clock.now());
  const row =
    dialect === 'postgres'
      ? (
          await sql<MacRequestRow>`select * from keyward_mac_principal(${hashToken(header)}, ${now})`.execute(
            db,
          )
        ).rows[0]
      : await macRequestRow(db, header, now);
  if (!row) return undefined;
  return {
    computerUserId: row.computer_user_id,
    childId: row.child_id,
    parentId: row.parent_id,
    computer: {
      computerId: row.computer_id,
      appVersion: row.app_version,
      isAdmin: row.is_admin,
      filterVersion: row.filter_version,
      osVersion: row.os_version,
      appReleaseChannel: row.app_release_channel,
      familyVersion: row.family_version === null ? undefined : String(row.family_version),
      sharedVersion: row.shared_version === null ? undefined : String(row.shared_version),
    },
  };
}

interface MacRequestRow {
  computer_user_id: string;
  child_id: string;
  parent_id: string;
  computer_id: string;
  app_version: string;
  is_admin: unknown;
  filter_version: string | null;
  os_version: string | null;
  app_release_channel: ReleaseChannel;
  family_version: number | string | null;
  shared_version: number | string | null;
}

/** The SQLite side of findMacRequestPrincipal (keyward_mac_principal holds the same query). */
function macRequestRow(db: Db, header: string, now: string): Promise<MacRequestRow | undefined> {
  return db
    .selectFrom('mac_app_tokens as t')
    .innerJoin('computer_users as cu', 'cu.id', 't.computer_user_id')
    .innerJoin('children as c', 'c.id', 't.child_id')
    .innerJoin('computers as m', 'm.id', 'cu.computer_id')
    .select((eb) => [
      't.computer_user_id',
      't.child_id',
      'c.parent_id',
      'cu.computer_id',
      'cu.app_version',
      'cu.is_admin',
      'm.filter_version',
      'm.os_version',
      'm.app_release_channel',
      eb
        .selectFrom('family_versions')
        .select('family_versions.version')
        .whereRef('family_versions.parent_id', '=', 'c.parent_id')
        .as('family_version'),
      eb
        .selectFrom('family_versions')
        .select('family_versions.version')
        .where('family_versions.parent_id', '=', GLOBAL_VERSION_KEY)
        .as('shared_version'),
    ])
    .where('t.token_hash', '=', hashToken(header))
    .where('m.kind', '!=', 'browser')
    .where((eb) => eb.or([eb('t.deleted_at', 'is', null), eb('t.deleted_at', '>', now)]))
    .executeTakeFirst();
}

/**
 * The computer users of many Mac tokens (by token hash) at once, for tokens that are still valid:
 * the push channel re-checks the tokens of a whole batch of heartbeats in one query.
 */
export async function findMacTokenOwners(
  db: Db,
  clock: Clock,
  tokenHashes: string[],
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (tokenHashes.length === 0) return owners;
  const now = toDbTime(clock.now());
  const rows = await db
    .selectFrom('mac_app_tokens as t')
    .innerJoin('computer_users as cu', 'cu.id', 't.computer_user_id')
    .innerJoin('children as c', 'c.id', 't.child_id')
    .innerJoin('computers as m', 'm.id', 'cu.computer_id')
    .select(['t.token_hash', 't.computer_user_id'])
    .where('t.token_hash', 'in', tokenHashes)
    .where('m.kind', '!=', 'browser')
    .where((eb) => eb.or([eb('t.deleted_at', 'is', null), eb('t.deleted_at', '>', now)]))
    .execute();
  for (const row of rows) owners.set(row.token_hash, row.computer_user_id);
  return owners;
}

export interface IosPrincipal {
  deviceId: string;
  childId: string;
  parentId: string;
}

/** The iOS device an `X-DeviceToken` stands for, or undefined (missing, unknown, device deleted). */
export async function findIosPrincipal(
  db: Db,
  header: string | string[] | undefined,
): Promise<IosPrincipal | undefined> {
  if (typeof header !== 'string' || !isUuid(header.trim())) return undefined;
  const row = await db
    .selectFrom('ios_app_tokens as t')
    .innerJoin('ios_devices as d', 'd.id', 't.device_id')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .select(['d.id as device_id', 'd.child_id', 'c.parent_id'])
    .where('t.token_hash', '=', hashToken(header.trim()))
    .executeTakeFirst();
  return row
    ? { deviceId: row.device_id, childId: row.child_id, parentId: row.parent_id }
    : undefined;
}

/** issue 22: the browser an `X-BrowserToken` stands for (Keyward for Chrome), with its child. */
export interface BrowserPrincipal extends MacPrincipal {
  computerId: string;
  /** 'Chrome', 'Edge'… as the extension named it when it connected */
  browser: string;
}

/**
 * The browser (a computer of kind `browser`) an `X-BrowserToken` stands for, or undefined when the
 * token is missing, unknown, retired past its grace period, or belongs to a Mac.
 */
export async function findBrowserPrincipal(
  db: Db,
  clock: Clock,
  header: string | string[] | undefined,
): Promise<BrowserPrincipal | undefined> {
  if (typeof header !== 'string' || !isUuid(header.trim())) return undefined;
  const now = toDbTime(clock.now());
  const row = await db
    .selectFrom('mac_app_tokens as t')
    .innerJoin('computer_users as cu', 'cu.id', 't.computer_user_id')
    .innerJoin('computers as m', 'm.id', 'cu.computer_id')
    .innerJoin('children as c', 'c.id', 't.child_id')
    .select(['t.computer_user_id', 't.child_id', 'c.parent_id', 'm.id as computer_id', 'm.browser'])
    .where('t.token_hash', '=', hashToken(header.trim()))
    .where('m.kind', '=', 'browser')
    .where((eb) => eb.or([eb('t.deleted_at', 'is', null), eb('t.deleted_at', '>', now)]))
    .executeTakeFirst();
  return row
    ? {
        computerUserId: row.computer_user_id,
        computerId: row.computer_id,
        browser: row.browser ?? 'Browser',
        childId: row.child_id,
        parentId: row.parent_id,
      }
    : undefined;
}
