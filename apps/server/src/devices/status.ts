import type { FilterState } from '@keyward/contract/device';
import type { ChildComputerStatus } from '@keyward/contract/shared';
import { computerUserStatus } from '@keyward/domain/status';
import type { Db } from '../db/database.ts';
import { fromDbJson } from '../db/values.ts';

/**
 * Live status (server-behaviour §4.4–4.5) of many computer users, read from `device_presence` in
 * one query. Every requested id is in the result; one without a presence row is `offline`.
 */
export async function computerUserStatuses(
  db: Db,
  computerUserIds: readonly string[],
  now: Date,
): Promise<Map<string, ChildComputerStatus>> {
  const statuses = new Map<string, ChildComputerStatus>();
  const ids = [...new Set(computerUserIds)];
  if (ids.length === 0) return statuses;
  const rows = await db
    .selectFrom('device_presence')
    .select(['computer_user_id', 'last_seen_at', 'filter_state'])
    .where('computer_user_id', 'in', ids)
    .execute();
  const presence = new Map(rows.map((row) => [row.computer_user_id, row]));
  for (const id of ids) {
    const row = presence.get(id);
    statuses.set(
      id,
      computerUserStatus(
        row && {
          lastSeenAt: row.last_seen_at,
          filterState:
            row.filter_state === null ? undefined : fromDbJson<FilterState>(row.filter_state),
        },
        now,
      ),
    );
  }
  return statuses;
}
