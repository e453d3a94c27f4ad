import type { Key, KeychainSummary, SharedKey } from '@keyward/contract/shared';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { KeychainsTable, KeysTable } from '../db/schema.ts';
import { fromDbBool, fromDbInt, fromDbJson, toDbTime } from '../db/values.ts';

// Reading keychains and keys for the dashboard (server-behaviour §3.4). A key's `deleted_at` is its
// expiration: expired keys are invisible everywhere, so every read goes through `isUnexpired`.

type KeyRow = Selectable<KeysTable>;
type KeychainRow = Selectable<KeychainsTable>;

/** `deleted_at IS NULL OR deleted_at > now` on the `keys` table (aliased or not). */
export function isUnexpired(now: Date, column: 'deleted_at' | 'k.deleted_at' = 'deleted_at') {
  const nowText = toDbTime(now);
  // biome-ignore lint/suspicious/noExplicitAny: used on `keys` and on `keys as k`
  return (eb: ExpressionBuilder<any, any>) =>
    eb.or([eb(column, 'is', null), eb(column, '>', nowText)]);
}

/** Unexpired key counts per keychain, in one grouped query (keychains without keys are absent). */
export async function countUnexpiredKeys(
  db: Db,
  now: Date,
  keychainIds: string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (keychainIds.length === 0) return counts;
  const rows = await db
    .selectFrom('keys')
    .select(['keychain_id', (eb) => eb.fn.countAll().as('count')])
    .where('keychain_id', 'in', keychainIds)
    .where(isUnexpired(now))
    .groupBy('keychain_id')
    .execute();
  for (const row of rows) counts.set(row.keychain_id, fromDbInt(row.count));
  return counts;
}

/** Unexpired keys of these keychains, oldest first. */
export async function unexpiredKeys(db: Db, now: Date, keychainIds: string[]): Promise<KeyRow[]> {
  if (keychainIds.length === 0) return [];
  return db
    .selectFrom('keys')
    .selectAll()
    .where('keychain_id', 'in', keychainIds)
    .where(isUnexpired(now))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function toKeychainSummary(row: KeychainRow, numKeys: number): KeychainSummary {
  return {
    id: row.id,
    parentId: row.parent_id,
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.warning !== null ? { warning: row.warning } : {}),
    isPublic: fromDbBool(row.is_public),
    numKeys,
  };
}

export function toKey(row: KeyRow): Key {
  return {
    id: row.id,
    keychainId: row.keychain_id,
    ...(row.comment !== null ? { comment: row.comment } : {}),
    ...(row.deleted_at !== null ? { expiration: toDbTime(new Date(row.deleted_at)) } : {}),
    key: fromDbJson<SharedKey>(row.key),
  };
}

/** Summaries of the given keychain rows, numKeys counted in one query. */
export async function summariesOf(
  db: Db,
  now: Date,
  rows: KeychainRow[],
): Promise<KeychainSummary[]> {
  const counts = await countUnexpiredKeys(
    db,
    now,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toKeychainSummary(row, counts.get(row.id) ?? 0));
}

export function byName(a: { name: string }, b: { name: string }): number {
  return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
}

export function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
