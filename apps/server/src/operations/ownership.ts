import type { Db } from '../db/database.ts';
import { notFound } from '../pairql/errors.ts';

// Deny by default (server-behaviour §0.3). Every parent-authenticated resolver reaches rows by id
// ONLY through these helpers: each returns the row when it belongs to (or hangs off) the session
// parent, and otherwise throws notFound(entityName) — a foreign row is indistinguishable from a
// missing one. Ids are compared lowercase (the contract's Uuid schema already lowercases input).

export async function ownedParent(db: Db, parentId: string, id: string) {
  if (id.toLowerCase() !== parentId) throw notFound('Parent');
  const row = await db
    .selectFrom('parents')
    .selectAll()
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Parent');
  return row;
}

export async function ownedChild(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('children')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Child');
  return row;
}

export async function ownedComputer(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('computers')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Computer');
  return row;
}

/** A computer user (UserDevice.id) whose child belongs to the parent. */
export async function ownedComputerUser(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('computer_users as cu')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .selectAll('cu')
    .where('cu.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('ComputerUser');
  return row;
}

/** Own keychains only: the ones the parent may edit. */
export async function ownedKeychain(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('keychains')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Keychain');
  return row;
}

/** Own or public keychains: the ones the parent may read and assign to a child. */
export async function selectableKeychain(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('keychains')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where((eb) => eb.or([eb('parent_id', '=', parentId), eb('is_public', '=', 1)]))
    .executeTakeFirst();
  if (!row) throw notFound('Keychain');
  return row;
}

/** Several own-or-public keychains in one query; notFound when any id is neither. */
export async function selectableKeychains(db: Db, parentId: string, ids: readonly string[]) {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('keychains')
    .selectAll()
    .where('id', 'in', wanted)
    .where((eb) => eb.or([eb('parent_id', '=', parentId), eb('is_public', '=', 1)]))
    .execute();
  if (rows.length !== wanted.length) throw notFound('Keychain');
  return rows;
}

/** A key of an own keychain (expired keys included; filter `deleted_at` where they must be hidden). */
export async function ownedKey(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('keys as k')
    .innerJoin('keychains as kc', 'kc.id', 'k.keychain_id')
    .selectAll('k')
    .where('k.id', '=', id.toLowerCase())
    .where('kc.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Key');
  return row;
}

export async function ownedNotificationMethod(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('notification_methods')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('NotificationMethod');
  return row;
}

export async function ownedNotification(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('notifications')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Notification');
  return row;
}

/** An unlock request made on a Mac of one of the parent's children (its child is owned). */
export async function ownedUnlockRequest(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('unlock_requests as ur')
    .innerJoin('computer_users as cu', 'cu.id', 'ur.computer_user_id')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .selectAll('ur')
    .select(['c.id as child_id', 'c.name as child_name'])
    .where('ur.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('UnlockRequest');
  return row;
}

/** A Mac filter-suspension request of one of the parent's children, with that child's settings. */
export async function ownedSuspendFilterRequest(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('mac_suspend_filter_requests as r')
    .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .selectAll('r')
    .select([
      'c.id as child_id',
      'c.name as child_name',
      'c.keylogging_enabled',
      'c.screenshots_enabled',
      'c.screenshots_frequency',
    ])
    .where('r.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('SuspendFilterRequest');
  return row;
}
