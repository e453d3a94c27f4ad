import type { Db } from '../db/database.ts';
import { fromDbInt } from '../db/values.ts';

// Issue 31: how many unlock requests wait, counted from the index on (computer_user_id, status,
// created_at, id) and never past a ceiling, so a count costs the same however many rows a flood
// left (a device can store at most PENDING_UNLOCKS_PER_DEVICE since issue 31; older floods may
// have left more, which count as the ceiling).

/** The device's pending unlock requests, counted up to `cap`. */
export async function countPendingUnlocks(
  db: Db,
  computerUserId: string,
  cap: number,
): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('unlock_requests')
        .select('id')
        .where('computer_user_id', '=', computerUserId)
        .where('status', '=', 'pending')
        .limit(cap)
        .as('waiting'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return fromDbInt(row.n);
}

/** The child's pending unlock requests on all its devices, counted up to `cap`. */
export async function countChildPendingUnlocks(
  db: Db,
  childId: string,
  cap: number,
): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('unlock_requests as ur')
        .innerJoin('computer_users as cu', 'cu.id', 'ur.computer_user_id')
        .select('ur.id')
        .where('cu.child_id', '=', childId)
        .where('ur.status', '=', 'pending')
        .limit(cap)
        .as('waiting'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return fromDbInt(row.n);
}
