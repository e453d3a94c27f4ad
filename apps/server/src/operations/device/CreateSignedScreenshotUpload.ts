import { reserveScreenshotUpload } from '../../activity/screenshot-slots.ts';
import { badRequest } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

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
  // issue 19: screenshots per minute, per Mac and per child (budgeted in reserveScreenshotUpload)
  const createdAt = input.createdAt ? new Date(input.createdAt) : ctx.clock.now();
  const objectKey = await reserveScreenshotUpload(ctx, ctx, {
    width: input.width,
    height: input.height,
    createdAt,
    filterSuspended: input.filterSuspended ?? false,
  });
  const storage = ctx.services.storage;
  return {
    uploadUrl: await storage.uploadUrl(objectKey),
    webUrl: await storage.readUrl(objectKey),
  };
});
