import { toDbBool, toDbTime } from '../../db/values.ts';
import { takeDeviceWriteBudget } from '../../devices/write-budgets.ts';
import { badRequest } from '../../pairql/errors.ts';
import { iosResolver } from '../../pairql/resolver.ts';
import { screenshotObjectKey, UPLOAD_URL_SECONDS } from '../../services/storage.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §5, §7.1: like the Mac's CreateSignedScreenshotUpload, for the iOS device: the row
// is written when the upload URL is issued, owned by the device (screenshots.ios_device_id), at the
// capture time the app sends (seconds since 2001), and becomes an activity item of the device's child
// once the PUT has stored its image (activity/screenshot-uploads.ts). The iOS app takes screenshots
// only while its filter is suspended, so every one is marked as taken during a suspension.
// uploadUrl: the server's signed PUT (90 s, image/jpeg, one upload).

/** Far above any screen; keeps the value inside a 32-bit integer column on both databases. */
const MAX_SIDE_PX = 100_000;

export default iosResolver('ScreenshotUploadUrl', async (input, ctx) => {
  if (input.width > MAX_SIDE_PX || input.height > MAX_SIDE_PX) {
    throw badRequest(
      'e5a0c7d3',
      `Screenshot size ${input.width}×${input.height} is over ${MAX_SIDE_PX} px`,
      `A screenshot can be at most ${MAX_SIDE_PX.toLocaleString('en-US')} pixels wide and high.`,
    );
  }
  // issue 19: screenshots per minute, per device and per child
  await takeDeviceWriteBudget(ctx, 'screenshots', { deviceId: ctx.deviceId, childId: ctx.childId });
  const id = newToken();
  const createdAt = new Date(input.createdAt);
  const objectKey = screenshotObjectKey(ctx.config.mode, ctx.deviceId, createdAt, id);
  await ctx.db
    .insertInto('screenshots')
    .values({
      id,
      computer_user_id: null,
      ios_device_id: ctx.deviceId,
      object_key: objectKey,
      width: input.width,
      height: input.height,
      filter_suspended: toDbBool(true),
      flagged: null,
      created_at: toDbTime(createdAt),
      deleted_at: null,
      upload_expires_at: toDbTime(new Date(ctx.clock.now().getTime() + UPLOAD_URL_SECONDS * 1000)),
      upload_started_at: null,
      uploaded_at: null,
    })
    .execute();
  return { uploadUrl: await ctx.services.storage.uploadUrl(objectKey) };
});
