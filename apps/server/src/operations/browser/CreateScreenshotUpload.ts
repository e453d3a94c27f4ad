import { reserveScreenshotUpload } from '../../activity/screenshot-slots.ts';
import { browserResolver } from '../../pairql/resolver.ts';

// Issue 22: a screenshot of the visible tab, taken at the child's screenshot frequency and size
// (or the suspension's extra monitoring), through the same one-PUT signed upload as a Mac's.
export default browserResolver('CreateScreenshotUpload', async (input, ctx) => {
  const objectKey = await reserveScreenshotUpload(ctx, ctx, {
    width: input.width,
    height: input.height,
    createdAt: new Date(input.takenAt),
    filterSuspended: input.filterSuspended,
  });
  return { uploadUrl: await ctx.services.storage.uploadUrl(objectKey) };
});
