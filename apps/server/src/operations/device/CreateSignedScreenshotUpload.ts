import { toDbBool, toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { screenshotObjectKey } from '../../services/storage.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §4.3, §7.1: the row exists as soon as the upload URL is issued; created_at is the
// Mac's capture time when sent, else now. uploadUrl: signed PUT (90 s, image/jpeg); webUrl: signed GET.
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
  const id = newToken();
  const createdAt = input.createdAt ? new Date(input.createdAt) : ctx.clock.now();
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
    })
    .execute();
  const storage = ctx.services.storage;
  return {
    uploadUrl: await storage.uploadUrl(objectKey),
    webUrl: await storage.readUrl(objectKey),
  };
});
