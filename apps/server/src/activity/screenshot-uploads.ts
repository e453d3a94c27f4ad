import type { Db } from '../db/database.ts';
import { HOUR, toDbTime } from '../db/values.ts';
import { notFound, PqlFailure } from '../pairql/errors.ts';
import type { ScreenshotStorage } from '../services/storage.ts';

// A screenshot's image arrives after its row (issue 19, finding 7): the device asks for a signed
// upload URL (CreateSignedScreenshotUpload, iOS ScreenshotUploadUrl), which writes the row with
// `upload_expires_at`, then PUTs the JPEG to that URL (http/screenshots.ts). Only rows whose image is
// stored (`uploaded_at`) are activity items: every activity read filters on it. An upload URL stores
// one image: the first PUT claims the row (`upload_started_at`) before writing, so a second or
// concurrent PUT is refused, whichever server instance it reaches. A crash between claim and
// stored image leaves the row unshown, and the retention job removes it with its object.

/** Rows still without their image this long after their URL expired are removed by retention. */
export const ABANDONED_UPLOAD_GRACE_MS = HOUR;

/** A refused second PUT: 409, with the contract's error body. */
export function uploadAlreadyReceived(key: string): PqlFailure {
  return new PqlFailure({
    id: 'c3f18a5e',
    type: 'badRequest',
    statusCode: 409,
    debugMessage: `Screenshot ${key} was already uploaded; an upload URL takes one image`,
    userMessage: 'This screenshot was already uploaded. Ask for a new upload link to send another.',
  });
}

/**
 * Stores the image of the screenshot whose object key is `key`, once: claims the row, writes the
 * object, then marks it uploaded. notFound when no row has that key (never issued, or removed);
 * refused (409) when an upload of it was already accepted. A failed write releases the claim, so the
 * device may try again while its URL is valid.
 */
export async function receiveScreenshotUpload(
  deps: { db: Db; storage: ScreenshotStorage; now: () => Date },
  key: string,
  bytes: Buffer,
): Promise<void> {
  const { db, storage } = deps;
  const claimed = await db
    .updateTable('screenshots')
    .set({ upload_started_at: toDbTime(deps.now()) })
    .where('object_key', '=', key)
    .where('upload_started_at', 'is', null)
    .where('uploaded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!claimed) {
    const row = await db
      .selectFrom('screenshots')
      .select('id')
      .where('object_key', '=', key)
      .executeTakeFirst();
    throw row ? uploadAlreadyReceived(key) : notFound('Screenshot');
  }
  try {
    await storage.write(key, bytes);
  } catch (error) {
    await db
      .updateTable('screenshots')
      .set({ upload_started_at: null })
      .where('id', '=', claimed.id)
      .where('uploaded_at', 'is', null)
      .execute();
    throw error;
  }
  const stored = await db
    .updateTable('screenshots')
    .set({ uploaded_at: toDbTime(deps.now()) })
    .where('id', '=', claimed.id)
    .executeTakeFirst();
  if (Number(stored.numUpdatedRows) === 0) {
    // the row went meanwhile (its child or device was removed): so does the image
    await storage.remove([key]);
    throw notFound('Screenshot');
  }
}
