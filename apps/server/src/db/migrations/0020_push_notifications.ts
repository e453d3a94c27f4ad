import type { ColumnDefinitionBuilder } from 'kysely';
import { boolDefault, columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 23: the "This device" method is a notification_methods row (config case `push`, the
// browser's subscription encrypted), so rules and dispatch treat it like every method; this table
// holds the one-tap decisions a suspension-request notification carries: single use, short-lived,
// bound to one request of one family, signed with the server's HMAC key (notifications/push-actions.ts).
// The weekly report email (jobs/weekly-report.ts) is on by default; it is sent in the evening of
// the time zone the dashboard last reported (UTC until then).
export const pushNotificationsMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  return {
    async up(db: MigrationDb) {
      await db.schema
        .alterTable('parents')
        .addColumn('weekly_report', t.bool, (c) =>
          c.notNull().defaultTo(boolDefault(dialect, true)),
        )
        .execute();
      await db.schema.alterTable('parents').addColumn('time_zone', t.text).execute();
      await db.schema
        .createTable('push_action_tokens')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, (c) =>
          c.references('parents.id').onDelete('cascade').notNull(),
        )
        // the person whose device got it (null = the owner): the decision is recorded as theirs
        .addColumn('person_id', t.id, (c) => c.references('co_parents.id').onDelete('cascade'))
        .addColumn('request_id', t.id, notNull)
        .addColumn('expires_at', t.ts, notNull)
        .addColumn('used_at', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .execute();
      await db.schema
        .createIndex('push_action_tokens_parent_id_idx')
        .on('push_action_tokens')
        .column('parent_id')
        .execute();
      await db.schema
        .createIndex('push_action_tokens_expires_at_idx')
        .on('push_action_tokens')
        .column('expires_at')
        .execute();
    },
    async down(db: MigrationDb) {
      await db.schema.dropTable('push_action_tokens').execute();
      await db.schema.alterTable('parents').dropColumn('time_zone').execute();
      await db.schema.alterTable('parents').dropColumn('weekly_report').execute();
    },
  };
};
