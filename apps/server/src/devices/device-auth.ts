import type { Db } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';
import type { Clock } from '../services/clock.ts';
import { hashToken, isUuid } from '../services/tokens.ts';

export interface MacPrincipal {
  computerUserId: string;
  childId: string;
  parentId: string;
}

/**
 * The computer user an `X-UserToken` stands for (server-behaviour §2.8), or undefined when the
 * token is missing, unknown, past its grace period, or its computer user was deleted.
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
    .select(['t.computer_user_id', 't.child_id', 'c.parent_id'])
    .where('t.token_hash', '=', hashToken(header))
    .where((eb) => eb.or([eb('t.deleted_at', 'is', null), eb('t.deleted_at', '>', now)]))
    .executeTakeFirst();
  return row
    ? { computerUserId: row.computer_user_id, childId: row.child_id, parentId: row.parent_id }
    : undefined;
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
    .select(['t.token_hash', 't.computer_user_id'])
    .where('t.token_hash', 'in', tokenHashes)
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
