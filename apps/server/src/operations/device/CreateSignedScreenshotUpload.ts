import { toDbBool, toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { screenshotObjectKey, UPLOAD_URL_SECONDS } from '../../services/storage.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3, §7.1: the row is written when the upload URL is issued, but it is an
// activity item only once the PUT has stored its image (activity/screenshot-uploads.ts); created_at
// is the Mac's capture time when sent, else now. uploadUrl: the server's signed PUT (90 s,
// image/jpeg, one upload); webUrl: signed GET.
/** Far above any screen; keeps the value inside a 32-bit integer column on both databases. */
const MAX_SIDE_PX = 100_000;

export default deviceResolver('CreateSignedScreenshotUpload', async (input, ctx) => {
  if (input.width > MAX_SIDE_PX || input.height > MAX_SIDE_PX) {
    throw badRequest(
      '4d9e6b20',
      `Screenshot size ${input.width}×${input.height} is over ${MAX_SIDE_PX} px`,
      `A screenshot can be at most ${MAX_SIDE_PX.toLocaleString('en-US')} pixels wide and high.`,
    );
  }
  // issue 19: screenshots per minute, per Mac and per child
  await takeDeviceWriteBudget(ctx, 'screenshots', {
    deviceId: ctx.computerUserId,
    childId: ctx.childId,
  });
  const id = newToken();
  const now = ctx.clock.now();
  const createdAt = input.createdAt ? new Date(input.createdAt) : now;
  const objectKey = screenshotObjectKey(ctx.config.mode, ctx.computerUserId, createdAt, id);
  await ctx.db
    .insertInto('screenshots')
    .values({
      id,
      computer_user_id: ctx.computerUserId,
      ios_device_id: null,
      object_key: objectKey,
      width: input.width,
      height: input.height,
      filter_suspended: toDbBool(input.filterSuspended ?? false),
      flagged: null,
      created_at: toDbTime(createdAt),
      deleted_at: null,
      upload_expires_at: toDbTime(new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000)),
      upload_started_at: null,
      uploaded_at: null,
    })
    .execute();
  const storage = ctx.services.storage;
  return {
    uploadUrl: await storage.uploadUrl(objectKey),
    webUrl: await storage.readUrl(objectKey),
  };
});
