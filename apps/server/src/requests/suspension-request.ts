import type { DeviceKind } from '@keyward/contract/shared';
import { pendingSuspensionToReuse } from '@keyward/domain/request-flood';
import { dialectOf } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';
import { deviceKindSource } from '../devices/family-devices.ts';
import { takeDeviceWriteBudget } from '../devices/write-budgets.ts';
import type { RequestContext } from '../pairql/context.ts';
import { newToken } from '../services/tokens.ts';
import { lockDevice } from './device-lock.ts';
import { checkRequestedSuspension } from './limits.ts';
import { notifyAboutChild } from '../notifications/child-writes.ts';

// server-behaviour §4.3 and §5: a child asks, from any kind of device, for the filter to be
// suspended for `duration` seconds. Budgeted per device and per child (issue 19); while the device
// has a request pending (and not expired), a new one is answered with that one's id. The parent
// hears about it after the insert, grouped with the child's other requests (notifications/child-writes.ts).

export interface AskingDevice {
  kind: DeviceKind;
  /** the computer-user id of a Mac, the device id of an iOS device */
  deviceId: string;
  childId: string;
  parentId: string;
}

export async function askForSuspension(
  ctx: RequestContext,
  device: AskingDevice,
  input: { duration: number; comment?: string },
): Promise<string> {
  checkRequestedSuspension(input.duration);
  await takeDeviceWriteBudget(ctx, 'suspensionRequests', {
    deviceId: device.deviceId,
    childId: device.childId,
  });
  const source = deviceKindSource(device.kind);
  const now = ctx.clock.now();
  const { id, isNew } = await ctx.db.transaction().execute(async (trx) => {
    await lockDevice(
      trx,
      dialectOf(ctx.config),
      device.kind === 'mac'
        ? { computerUserId: device.deviceId }
        : { iosDeviceId: device.deviceId },
    );
    const reused = pendingSuspensionToReuse(
      await source.pendingSuspensions(trx, device.deviceId),
      now,
    );
    if (reused) return { id: reused.id, isNew: false };
    const created = newToken();
    await source.insertSuspensionRequest(trx, {
      id: created,
      deviceId: device.deviceId,
      duration: input.duration,
      requestComment: input.comment?.trim() || null,
      at: toDbTime(now),
    });
    return { id: created, isNew: true };
  });

  if (isNew) {
    notifyAboutChild(ctx, {
      trigger: 'suspendFilterRequestSubmitted',
      parentId: device.parentId,
      childId: device.childId,
      at: now,
    });
  }
  return id;
}
