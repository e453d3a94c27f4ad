import type { ColumnDefinitionBuilder } from 'kysely';
import { sql } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration, oneOf } from './types.ts';

// Issue 34: screen time.
// - children: the daily allowance per day of the week (json `{monday: minutes | null, …}`, null:
//   no limit any day), the keychains that never count (json id array), and a pause (`paused_at`
//   set while paused; `paused_until` null: until the parent resumes).
// - screen_time_minutes: one row per browser and minute a counted site was visible (the primary
//   key: a browser reports a minute once, so it can never report more minutes than have passed);
//   a child's time is the count of DISTINCT minutes over the child's browsers.
// - more_time_requests: "Ask for 15 / 30 / 60 more minutes", decided by the parent; a grant adds
//   its minutes to the allowance of the family's local day it was asked on (`day`).
export const screenTimeMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  return {
    async up(db: MigrationDb) {
      await db.schema.alterTable('children').addColumn('screen_time_allowance', t.json).execute();
      await db.schema
        .alterTable('children')
        .addColumn('screen_time_exempt', t.json, (c) => c.notNull().defaultTo(sql.lit('[]')))
        .execute();
      await db.schema.alterTable('children').addColumn('paused_at', t.ts).execute();
      await db.schema.alterTable('children').addColumn('paused_until', t.ts).execute();

      await db.schema
        .createTable('screen_time_minutes')
        .addColumn('computer_user_id', t.id, (c) =>
          c.references('computer_users.id').onDelete('cascade').notNull(),
        )
        .addColumn('child_id', t.id, (c) =>
          c.references('children.id').onDelete('cascade').notNull(),
        )
        .addColumn('minute', t.ts, notNull)
        .addColumn('site', t.text, notNull)
        .addPrimaryKeyConstraint('screen_time_minutes_pk', ['computer_user_id', 'minute'])
        .execute();
      await db.schema
        .createIndex('screen_time_minutes_child_idx')
        .on('screen_time_minutes')
        .columns(['child_id', 'minute'])
        .execute();

      await db.schema
        .createTable('more_time_requests')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('child_id', t.id, (c) =>
          c.references('children.id').onDelete('cascade').notNull(),
        )
        .addColumn('computer_user_id', t.id, (c) =>
          c.references('computer_users.id').onDelete('cascade').notNull(),
        )
        .addColumn('day', t.text, notNull)
        .addColumn('requested_minutes', t.int, notNull)
        .addColumn('granted_minutes', t.int)
        .addColumn('status', t.text, (c) =>
          oneOf('status', ['pending', 'accepted', 'rejected'])(c.notNull()),
        )
        .addColumn('request_comment', t.text)
        .addColumn('response_comment', t.text)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('updated_at', t.ts, notNull)
        .execute();
      await db.schema
        .createIndex('more_time_requests_child_idx')
        .on('more_time_requests')
        .columns(['child_id', 'status', 'created_at'])
        .execute();
      await db.schema
        .createIndex('more_time_requests_device_idx')
        .on('more_time_requests')
        .columns(['computer_user_id', 'status'])
        .execute();
    },
    async down(db: MigrationDb) {
      await db.schema.dropTable('more_time_requests').execute();
      await db.schema.dropTable('screen_time_minutes').execute();
      for (const column of [
        'paused_until',
        'paused_at',
        'screen_time_exempt',
        'screen_time_allowance',
      ]) {
        await db.schema.alterTable('children').dropColumn(column).execute();
      }
    },
  };
};
