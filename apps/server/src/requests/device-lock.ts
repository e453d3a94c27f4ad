import type { Db } from '../db/database.ts';
import type { DialectName } from '../db/migrations/types.ts';

/**
 * Takes the row lock of a child's device inside a transaction, so that "is this request already
 * pending? else store it" runs one request at a time per device (issue 19: 50 identical requests
 * store one row). PostgreSQL: SELECT … FOR UPDATE, which changes no row (the device rows feed the
 * read cache's family versions, which an update would bump). SQLite runs one transaction at a time.
 */
export async function lockDevice(
  trx: Db,
  dialect: DialectName,
  device: { computerUserId: string } | { iosDeviceId: string },
): Promise<void> {
  if (dialect !== 'postgres') return;
  if ('computerUserId' in device) {
    await trx
      .selectFrom('computer_users')
      .select('id')
      .where('id', '=', device.computerUserId)
      .forUpdate()
      .execute();
  } else {
    await trx
      .selectFrom('ios_devices')
      .select('id')
      .where('id', '=', device.iosDeviceId)
      .forUpdate()
      .execute();
  }
}
