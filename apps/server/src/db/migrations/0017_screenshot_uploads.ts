import { sql } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 19 (finding 7): a screenshot is an activity item only once its image is stored. The row is
// still written when the device asks for the signed upload URL, but it stays out of every activity
// read until the upload lands:
// - upload_expires_at: when the signed upload URL stops working (the retention job removes rows
//   still waiting an hour after it);
// - upload_started_at: set by the one PUT the URL accepts, before its bytes are written (a second
//   or concurrent PUT is refused);
// - uploaded_at: set once the image is stored; only these rows are shown and counted.
// Rows from before this migration were shown as soon as they existed: they are marked uploaded so
// they stay visible.
// Issue 18: iOS screenshots join the activity review, read by device and time like a Mac's.
export const screenshotUploadsMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  return {
    async up(db: MigrationDb) {
      await db.schema.alterTable('screenshots').addColumn('upload_expires_at', t.ts).execute();
      await db.schema.alterTable('screenshots').addColumn('upload_started_at', t.ts).execute();
      await db.schema.alterTable('screenshots').addColumn('uploaded_at', t.ts).execute();
      await sql`UPDATE screenshots SET uploaded_at = created_at, upload_started_at = created_at`.execute(
        db,
      );
      // the upload route finds its row by the key in the URL
      await db.schema
        .createIndex('screenshots_object_key_idx')
        .on('screenshots')
        .column('object_key')
        .unique()
        .execute();
      // the retention job's rows still waiting for their image
      await db.schema
        .createIndex('screenshots_awaiting_upload_idx')
        .on('screenshots')
        .column('upload_expires_at')
        .where(sql<boolean>`uploaded_at is null`)
        .execute();
      await db.schema.dropIndex('screenshots_ios_device_id_idx').execute();
      await db.schema
        .createIndex('screenshots_ios_device_id_created_at_idx')
        .on('screenshots')
        .columns(['ios_device_id', 'created_at'])
        .execute();
    },
    async down(db: MigrationDb) {
      await db.schema.dropIndex('screenshots_ios_device_id_created_at_idx').execute();
      await db.schema
        .createIndex('screenshots_ios_device_id_idx')
        .on('screenshots')
        .column('ios_device_id')
        .execute();
      await db.schema.dropIndex('screenshots_awaiting_upload_idx').execute();
      await db.schema.dropIndex('screenshots_object_key_idx').execute();
      for (const column of ['uploaded_at', 'upload_started_at', 'upload_expires_at']) {
        await db.schema.alterTable('screenshots').dropColumn(column).execute();
      }
    },
  };
};
