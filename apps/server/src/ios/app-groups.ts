import { IOS_APP_BLOCK_GROUPS, type IosAppBlockGroup } from '@keyward/contract/ios';
import type { BlockRule } from '@keyward/contract/shared';
import { compareVersions } from '@keyward/domain/releases';
import type { Db } from '../db/database.ts';
import { IOS_APP_BLOCK_GROUP_IDS } from '../db/migrations/0016_ios_app_block_groups.ts';
import { fromDbJson } from '../db/values.ts';
import { customRules } from './rules.ts';

// The rules an iOS app without a parent account enforces (server-behaviour §5, BlockRules_v2 and
// DefaultBlockRules): the app chooses among its own nine block groups, each one a group of the
// catalogue (migration 0016). The catalogue's other groups (games, social media, …) exist only for
// the parent's devices and are never sent here. Rules are in the dashboard's shapes; the resolvers
// turn them into the app's (wire.ts).

/** Apps before 1.5.0 never showed the Spotify group, so they could not turn it off. */
const SPOTIFY_GROUP_SINCE = '1.5.0';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

const isAppBlockGroup = (name: string): name is IosAppBlockGroup =>
  (IOS_APP_BLOCK_GROUPS as readonly string[]).includes(name);

/** The catalogue ids of the app's groups that are on: every one but `disabled` (unknown names are ignored). */
export function appGroupIdsExcept(disabled: readonly string[], appVersion?: string): string[] {
  const off = new Set(disabled.filter(isAppBlockGroup));
  if (appVersion !== undefined && isOlderApp(appVersion)) off.add('spotifyImages');
  return IOS_APP_BLOCK_GROUPS.filter((name) => !off.has(name)).map(
    (name) => IOS_APP_BLOCK_GROUP_IDS[name],
  );
}

/** A version the app sent (`1.4.2`) that is before 1.5.0; anything unreadable is not. */
function isOlderApp(version: string): boolean {
  return /^\d+\.\d+\.\d+/.test(version.trim()) && compareVersions(version, SPOTIFY_GROUP_SINCE) < 0;
}

/** The rules of these groups, group by group, each group's in its stored order. */
export async function groupRules(db: Db, groupIds: readonly string[]): Promise<BlockRule[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('ios_block_rules')
    .select('rule')
    .where('group_id', 'in', [...groupIds])
    .orderBy('group_id')
    .orderBy('id')
    .execute();
  return rows.map((row) => fromDbJson<BlockRule>(row.rule));
}

/**
 * The device a parent connected with this vendor id and that is still connected (it has a token),
 * the most recently seen one when the vendor id was connected in more than one family. The nil UUID
 * is what the app sends when iOS gave it no vendor id: it is nobody's.
 */
export async function connectedDeviceOfVendor(
  db: Db,
  vendorId: string | undefined,
): Promise<{ id: string; parentId: string } | undefined> {
  if (vendorId === undefined || vendorId === NIL_UUID) return undefined;
  const row = await db
    .selectFrom('ios_devices as d')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .select(['d.id', 'c.parent_id'])
    .where('d.vendor_id', '=', vendorId)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('ios_app_tokens as t').select('t.id').whereRef('t.device_id', '=', 'd.id'),
      ),
    )
    .orderBy('d.updated_at', 'desc')
    .orderBy('d.id')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, parentId: row.parent_id } : undefined;
}

/** The app's groups that are on, then the connected device's own rules (when the vendor id has one). */
export async function unconnectedAppRules(
  db: Db,
  options: { disabledGroups: readonly string[]; appVersion?: string; vendorId?: string },
): Promise<BlockRule[]> {
  const rules = await groupRules(db, appGroupIdsExcept(options.disabledGroups, options.appVersion));
  const device = await connectedDeviceOfVendor(db, options.vendorId);
  if (!device) return rules;
  return [...rules, ...(await customRules(db, device.id)).map((row) => row.rule)];
}
