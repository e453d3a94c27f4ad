import type { Device } from '@keyward/contract/shared';
import { describeModel } from '@keyward/domain/device-models';
import { highestVersion } from '@keyward/domain/releases';
import { groupBy } from '../collections.ts';
import type { Db } from '../db/database.ts';
import { computerUserStatuses } from './status.ts';

/**
 * The parent's computers as `Device` objects (server-behaviour §3.3), optionally only one.
 * users = the children using the computer (one entry per computer user) with their live status;
 * appVersion = the highest app version among its computer users.
 */
export async function loadDevices(
  db: Db,
  parentId: string,
  now: Date,
  onlyComputerId?: string,
): Promise<Device[]> {
  let computersQuery = db
    .selectFrom('computers')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .orderBy('id');
  if (onlyComputerId !== undefined)
    computersQuery = computersQuery.where('id', '=', onlyComputerId);
  const computers = await computersQuery.execute();
  if (computers.length === 0) return [];

  const computerUsers = await db
    .selectFrom('computer_users as cu')
    .innerJoin('children as ch', 'ch.id', 'cu.child_id')
    .select(['cu.id', 'cu.computer_id', 'cu.app_version', 'ch.id as child_id', 'ch.name'])
    .where(
      'cu.computer_id',
      'in',
      computers.map((c) => c.id),
    )
    .where('ch.parent_id', '=', parentId)
    .orderBy('ch.name')
    .orderBy('cu.id')
    .execute();
  const statuses = await computerUserStatuses(
    db,
    computerUsers.map((cu) => cu.id),
    now,
  );
  const usersOf = groupBy(computerUsers, (cu) => cu.computer_id);

  return computers.map((computer): Device => {
    const users = usersOf.get(computer.id) ?? [];
    const model = describeModel(computer.model_identifier);
    const device: Device = {
      id: computer.id,
      releaseChannel: computer.app_release_channel,
      users: users.map((cu) => ({
        id: cu.child_id,
        name: cu.name,
        status: statuses.get(cu.id) ?? { case: 'offline' },
      })),
      appVersion: highestVersion(users.map((cu) => cu.app_version)),
      serialNumber: computer.serial_number,
      modelIdentifier: computer.model_identifier,
      modelFamily: model.family,
      modelTitle: model.title,
    };
    if (computer.custom_name !== null) device.name = computer.custom_name;
    return device;
  });
}
