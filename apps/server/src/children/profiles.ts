import type {
  BlockedApp,
  PlainTimeWindow,
  RuleSchedule,
  User,
  UserDevice,
  UserKeychainSummary,
} from '@keyward/contract/shared';
import { describeModel } from '@keyward/domain/device-models';
import { sql } from 'kysely';
import { storedAlertCategories, storedAlertWords } from '../activity/alerts.ts';
import { groupBy } from '../collections.ts';
import type { Db } from '../db/database.ts';
import { fromDbBool, fromDbInt, fromDbJson, toDbTime } from '../db/values.ts';
import { computerUserStatuses } from '../devices/status.ts';
import { familyTimeZoneOf, screenTimeSettings } from './screen-time.ts';

/**
 * The parent's children as `User` objects (server-behaviour §3.1), optionally only one child.
 * Callers reach the child id through ownedChild first; the parent filter here is the second lock.
 * One query per table, never per child.
 */
export async function loadChildProfiles(
  db: Db,
  parentId: string,
  now: Date,
  onlyChildId?: string,
): Promise<User[]> {
  let childrenQuery = db
    .selectFrom('children')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .orderBy('name');
  if (onlyChildId !== undefined) childrenQuery = childrenQuery.where('id', '=', onlyChildId);
  const children = await childrenQuery.execute();
  if (children.length === 0) return [];
  const childIds = children.map((child) => child.id);
  const timeZone = await familyTimeZoneOf(db, parentId);

  const computerUsers = await db
    .selectFrom('computer_users as cu')
    .innerJoin('computers as c', 'c.id', 'cu.computer_id')
    .select([
      'cu.id',
      'cu.child_id',
      'cu.computer_id',
      'c.model_identifier',
      'c.custom_name',
      'cu.created_at',
    ])
    .where('cu.child_id', 'in', childIds)
    .where('c.parent_id', '=', parentId)
    .orderBy('cu.created_at')
    .orderBy('cu.id')
    .execute();

  const statuses = await computerUserStatuses(
    db,
    computerUsers.map((cu) => cu.id),
    now,
  );

  const nowText = toDbTime(now);
  const assignments = await db
    .selectFrom('child_keychains as ck')
    .innerJoin('keychains as k', 'k.id', 'ck.keychain_id')
    .select((eb) => [
      'ck.child_id',
      'ck.schedule',
      'k.id',
      'k.parent_id',
      'k.name',
      'k.description',
      'k.is_public',
      eb
        .selectFrom('keys')
        .select(sql<number | string>`count(*)`.as('n'))
        .whereRef('keys.keychain_id', '=', 'k.id')
        .where((w) => w.or([w('keys.deleted_at', 'is', null), w('keys.deleted_at', '>', nowText)]))
        .as('num_keys'),
    ])
    .where('ck.child_id', 'in', childIds)
    .orderBy('k.name')
    .orderBy('k.id')
    .execute();

  const blockedApps = await db
    .selectFrom('blocked_mac_apps')
    .select(['id', 'child_id', 'identifier', 'schedule'])
    .where('child_id', 'in', childIds)
    .orderBy('created_at')
    .orderBy('identifier')
    .orderBy('id')
    .execute();

  const devicesOf = groupBy(computerUsers, (cu) => cu.child_id);
  const keychainsOf = groupBy(assignments, (a) => a.child_id);
  const blockedAppsOf = groupBy(blockedApps, (b) => b.child_id);

  return children.map((child): User => {
    const user: User = {
      id: child.id,
      name: child.name,
      keyloggingEnabled: fromDbBool(child.keylogging_enabled),
      screenshotsEnabled: fromDbBool(child.screenshots_enabled),
      screenshotsResolution: child.screenshots_resolution,
      screenshotsFrequency: child.screenshots_frequency,
      showSuspensionActivity: fromDbBool(child.show_suspension_activity),
      keychains: (keychainsOf.get(child.id) ?? []).map((a): UserKeychainSummary => {
        const summary: UserKeychainSummary = {
          id: a.id,
          parentId: a.parent_id,
          name: a.name,
          isPublic: fromDbBool(a.is_public),
          numKeys: fromDbInt(a.num_keys ?? 0),
        };
        if (a.description !== null) summary.description = a.description;
        if (a.schedule !== null) summary.schedule = fromDbJson<RuleSchedule>(a.schedule);
        return summary;
      }),
      devices: (devicesOf.get(child.id) ?? []).map((cu): UserDevice => {
        const model = describeModel(cu.model_identifier);
        const device: UserDevice = {
          id: cu.id,
          deviceId: cu.computer_id,
          status: statuses.get(cu.id) ?? { case: 'offline' },
          modelFamily: model.family,
          modelTitle: model.title,
          modelIdentifier: cu.model_identifier,
        };
        if (cu.custom_name !== null) device.customName = cu.custom_name;
        return device;
      }),
      blockedApps: (blockedAppsOf.get(child.id) ?? []).map((b): BlockedApp => {
        const app: BlockedApp = { id: b.id, identifier: b.identifier };
        if (b.schedule !== null) app.schedule = fromDbJson<RuleSchedule>(b.schedule);
        return app;
      }),
      createdAt: child.created_at,
      alertCategories: storedAlertCategories(child.alert_categories),
      alertWords: storedAlertWords(child.alert_words),
      screenTime: screenTimeSettings(child, timeZone, now),
    };
    if (child.downtime !== null) user.downtime = fromDbJson<PlainTimeWindow>(child.downtime);
    return user;
  });
}
