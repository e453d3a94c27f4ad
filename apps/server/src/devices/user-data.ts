import type { UserData } from '@keyward/contract/device';
import type { PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import type { Db } from '../db/database.ts';
import { fromDbBool, fromDbJson } from '../db/values.ts';

/** The child's settings of the app's `UserData`: all of it but the Mac's own token, id and connection time. */
export type ChildUserData = Omit<UserData, 'token' | 'deviceId' | 'connectedAt'>;

/** The child's settings as the Mac applies them (server-behaviour §4.1 *UserData*). */
export async function loadUserData(db: Db, childId: string): Promise<ChildUserData> {
  const child = await db
    .selectFrom('children')
    .selectAll()
    .where('id', '=', childId)
    .executeTakeFirstOrThrow();
  const apps = await db
    .selectFrom('blocked_mac_apps')
    .select(['id', 'identifier', 'schedule'])
    .where('child_id', '=', childId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const blockedApps: NonNullable<UserData['blockedApps']> = apps.map((app) => {
    const schedule = app.schedule === null ? undefined : fromDbJson<RuleSchedule>(app.schedule);
    return schedule === undefined
      ? { id: app.id, identifier: app.identifier }
      : { id: app.id, identifier: app.identifier, schedule };
  });
  const userData: ChildUserData = {
    id: child.id,
    name: child.name,
    keyloggingEnabled: fromDbBool(child.keylogging_enabled),
    screenshotsEnabled: fromDbBool(child.screenshots_enabled),
    screenshotFrequency: child.screenshots_frequency,
    screenshotSize: child.screenshots_resolution,
    blockedApps,
  };
  if (child.downtime !== null) userData.downtime = fromDbJson<PlainTimeWindow>(child.downtime);
  return userData;
}
