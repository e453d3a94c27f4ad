import { toDbBool, toDbTime } from '../db/values.ts';
import { takeDeviceWriteBudget } from '../devices/write-budgets.ts';
import type { RequestContext } from '../pairql/context.ts';
import { screenshotObjectKey, UPLOAD_URL_SECONDS } from '../services/storage.ts';
import { newToken } from '../services/tokens.ts';

// A computer user's screenshot waits for its one upload (issue 19, migration 0017): the row is
// stored now, with the moment its signed upload URL stops working, and becomes an activity item
// once the image is received (screenshot-uploads.ts). The Mac and Keyward for Chrome (issue 22)
// both reserve their uploads here.

/** Reserves one upload; returns the object key its signed URLs are made for. */
export async function reserveScreenshotUpload(
  ctx: RequestContext,
  device: { computerUserId: string; childId: string },
  shot: { width: number; height: number; createdAt: Date; filterSuspended: boolean },
): Promise<string> {
  await takeDeviceWriteBudget(ctx, 'screenshots', {
    deviceId: device.computerUserId,
    childId: device.childId,
  });
  const id = newToken();
  const now = ctx.clock.now();
  const objectKey = screenshotObjectKey(ctx.config.mode, device.computerUserId, shot.createdAt, id);
  await ctx.db
    .insertInto('screenshots')
    .values({
      id,
      computer_user_id: device.computerUserId,
      ios_device_id: null,
      object_key: objectKey,
      width: shot.width,
      height: shot.height,
      filter_suspended: toDbBool(shot.filterSuspended),
      flagged: null,
      created_at: toDbTime(shot.createdAt),
      deleted_at: null,
      upload_expires_at: toDbTime(new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000)),
      upload_started_at: null,
      uploaded_at: null,
    })
    .execute();
  return objectKey;
}
