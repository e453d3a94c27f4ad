import type { ColumnDefinitionBuilder } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 33: the names Keyward DNS blocked on a device, kept 24 hours (at most 200 per device), for
// the child's /ask/<device id> page. One row per device and name; removed with the device.
export const dnsBlockedNamesMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  return {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('dns_blocked_names')
        .addColumn('computer_user_id', t.id, (c) =>
          c.references('computer_users.id').onDelete('cascade').notNull(),
        )
        .addColumn('name', t.text, notNull)
        .addColumn('count', t.int, notNull)
        .addColumn('last_at', t.ts, notNull)
        .addPrimaryKeyConstraint('dns_blocked_names_pk', ['computer_user_id', 'name'])
        .execute();
      await db.schema
        .createIndex('dns_blocked_names_last_at_idx')
        .on('dns_blocked_names')
        .columns(['computer_user_id', 'last_at'])
        .execute();
    },
    async down(db: MigrationDb) {
      await db.schema.dropTable('dns_blocked_names').execute();
    },
  };
};
