import type { ActivitySources } from '../activity/activity.ts';
import { findSuspensionRequest } from '../devices/family-devices.ts';
import type { Db } from '../db/database.ts';
import { fromDbJson } from '../db/values.ts';
import { notFound, PqlFailure } from '../pairql/errors.ts';

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

/**
 * Issue 33: a Keyward DNS device of the parent's child, by its computer's id (its page's id): a
 * `dns` computer has one computer user, the child.
 */
export async function ownedDnsDevice(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('computer_users as cu')
    .innerJoin('children as ch', 'ch.id', 'cu.child_id')
    .innerJoin('computers as c', 'c.id', 'cu.computer_id')
    .select([
      'cu.id',
      'cu.child_id',
      'cu.computer_id',
      'ch.name as child_name',
      'c.custom_name',
      'c.platform',
      'c.dns_removal_password_encrypted',
    ])
    .where('c.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .where('ch.parent_id', '=', parentId)
    .where('c.kind', '=', 'dns')
    .executeTakeFirst();
  if (!row) throw notFound('Keyward DNS device');
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

/** Issue 23: a "This device" method (a notification method of config case `push`). */
export async function ownedPushSubscription(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('notification_methods')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row || fromDbJson<{ case: string }>(row.config).case !== 'push') {
    throw notFound('PushSubscription');
  }
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

/** An announcement shown to this parent (each parent has rows of their own). */
export async function ownedAnnouncement(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('announcements')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Announcement');
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

/** One owned child with the devices its activity comes from; notFound('Child') otherwise. */
export async function ownedChildActivitySources(db: Db, parentId: string, childId: string) {
  const child = await ownedChild(db, parentId, childId);
  const [macs, iosDevices] = await Promise.all([
    db.selectFrom('computer_users').select('id').where('child_id', '=', child.id).execute(),
    db.selectFrom('ios_devices').select('id').where('child_id', '=', child.id).execute(),
  ]);
  const sources: ActivitySources = {
    computerUserIds: macs.map((row) => row.id),
    iosDeviceIds: iosDevices.map((row) => row.id),
  };
  return { child, sources };
}

/** The activity sources of each of the parent's children (children without devices are absent). */
export async function ownedActivitySourcesByChild(
  db: Db,
  parentId: string,
): Promise<Map<string, ActivitySources>> {
  const [macs, iosDevices] = await Promise.all([
    ownedComputerUsersByChild(db, parentId),
    db
      .selectFrom('ios_devices as d')
      .innerJoin('children as c', 'c.id', 'd.child_id')
      .select(['d.id', 'c.id as childId'])
      .where('c.parent_id', '=', parentId)
      .execute(),
  ]);
  const byChild = new Map<string, { computerUserIds: string[]; iosDeviceIds: string[] }>();
  const of = (childId: string) => {
    let sources = byChild.get(childId);
    if (!sources) {
      sources = { computerUserIds: [], iosDeviceIds: [] };
      byChild.set(childId, sources);
    }
    return sources;
  };
  for (const mac of macs) of(mac.childId).computerUserIds.push(mac.computerUserId);
  for (const device of iosDevices) of(device.childId).iosDeviceIds.push(device.id);
  return byChild;
}

/** Every computer user of the parent's children, with its child's id. */
export async function ownedComputerUsersByChild(db: Db, parentId: string) {
  return db
    .selectFrom('computer_users as cu')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .select(['cu.id as computerUserId', 'c.id as childId'])
    .where('c.parent_id', '=', parentId)
    .execute();
}

/**
 * Subquery of the parent's computer-user ids, for activity writes: `where computer_user_id in (…)`
 * restricts an update to the parent's own screenshots and keystroke lines.
 */
export function ownedComputerUserIdsQuery(db: Db, parentId: string) {
  return db
    .selectFrom('computer_users as cu')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .select('cu.id')
    .where('c.parent_id', '=', parentId);
}

/** Subquery of the parent's iOS device ids, for writes to their screenshots (as above). */
export function ownedIosDeviceIdsQuery(db: Db, parentId: string) {
  return db
    .selectFrom('ios_devices as d')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .select('d.id')
    .where('c.parent_id', '=', parentId);
}

/** An iOS device of one of the parent's children, with the child's name. */
export async function ownedIosDevice(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('ios_devices as d')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .selectAll('d')
    .select('c.name as child_name')
    .where('d.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('iOS device');
  return row;
}

/** A custom block rule of an own iOS device (catalogue group rules are nobody's to edit). */
export async function ownedBlockRule(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('ios_block_rules as r')
    .innerJoin('ios_devices as d', 'd.id', 'r.device_id')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .selectAll('r')
    .where('r.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Block rule');
  return row;
}

/** A data export of the family (issue 12). */
export async function ownedDataExport(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('data_exports')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('Data export');
  return row;
}

/** A passkey of the person acting (another person's, even in the same family, is refused). */
export async function ownedPasskey(db: Db, parentId: string, personId: string, id: string) {
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('parent_id', '=', parentId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
  if (!row) throw notFound('Passkey');
  return row;
}

/**
 * An `isNew` save sent again (a double click, a retried request) finds its row already there. The
 * row is the parent's when `owned` finds it; then the save is answered as done and the row is left
 * as the first save wrote it. Another parent's row with that id stays a refusal (§0.3).
 */
export async function isAlreadyCreated(owned: () => Promise<unknown>): Promise<boolean> {
  try {
    await owned();
    return true;
  } catch (error) {
    if (error instanceof PqlFailure && error.details.type === 'notFound') return false;
    throw error;
  }
}

/**
 * Issue 20: a filter-suspension request of one of the parent's children made on a device of any
 * kind (devices/family-devices.ts), in the one shape every kind shares; notFound otherwise.
 */
export async function ownedSuspensionRequest(db: Db, parentId: string, id: string) {
  const found = await findSuspensionRequest(db, parentId, id);
  if (!found) throw notFound('SuspendFilterRequest');
  return found;
}

/** Issue 34: a more-time request of one of the parent's children; notFound otherwise. */
export async function ownedMoreTimeRequest(db: Db, parentId: string, id: string) {
  const row = await db
    .selectFrom('more_time_requests as r')
    .innerJoin('children as c', 'c.id', 'r.child_id')
    .selectAll('r')
    .select('c.name as child_name')
    .where('r.id', '=', id.toLowerCase())
    .where('c.parent_id', '=', parentId)
    .executeTakeFirst();
  if (!row) throw notFound('MoreTimeRequest');
  return row;
}
