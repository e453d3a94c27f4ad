import type { ColumnDefinitionBuilder } from 'kysely';
import { columnTypes, type MigrationDb, oneOf, type PortableMigration } from './types.ts';

// Issue 12: co-parents (people other than the owner who log in to the same family account), their
// invitations, the person each session / notification rule / method belongs to (null = the
// owner), and the audit log of every change made through the dashboard API.
export const coParentsMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  const cascade =
    (target: string, nullable = false) =>
    (c: ColumnDefinitionBuilder) => {
      const column = c.references(`${target}.id`).onDelete('cascade');
      return nullable ? column : column.notNull();
    };
  const index = (db: MigrationDb, table: string, columns: string[]) =>
    db.schema
      .createIndex(`${table}_${columns.join('_')}_idx`)
      .on(table)
      .columns(columns)
      .execute();

  return {
    async up(db: MigrationDb) {
      // id = the person's id; email never equals any parents.email (enforced in accounts/people.ts)
      await db.schema
        .createTable('co_parents')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, cascade('parents'))
        .addColumn('email', t.text, (c) => c.notNull().unique())
        .addColumn('password_hash', t.text)
        .addColumn('status', t.text, (c) => oneOf('status', ['invited', 'active'])(c.notNull()))
        .addColumn('created_at', t.ts, notNull)
        .addColumn('updated_at', t.ts, notNull)
        .execute();
      await index(db, 'co_parents', ['parent_id']);

      // the emailed /parent-invite/{token} links: only the hash is stored, 7 days, single use
      await db.schema
        .createTable('parent_invitations')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('co_parent_id', t.id, cascade('co_parents'))
        .addColumn('token_hash', t.text, (c) => c.notNull().unique())
        .addColumn('expires_at', t.ts, notNull)
        .addColumn('used_at', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .execute();
      await index(db, 'parent_invitations', ['co_parent_id']);

      for (const table of [
        'dashboard_sessions',
        'one_time_tokens',
        'notifications',
        'notification_methods',
        'pending_notification_methods',
      ]) {
        await db.schema
          .alterTable(table)
          .addColumn('person_id', t.id, cascade('co_parents', true))
          .execute();
        await index(db, table, ['person_id']);
      }

      await db.schema
        .createTable('audit_log')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, cascade('parents'))
        // no foreign key: entries outlive a removed co-parent (the email is kept beside the id)
        .addColumn('person_id', t.id, notNull)
        .addColumn('person_email', t.text, notNull)
        .addColumn('operation', t.text, notNull)
        .addColumn('entity_type', t.text, notNull)
        .addColumn('entity_id', t.id)
        .addColumn('child_id', t.id)
        .addColumn('summary', t.text, notNull)
        .addColumn('changes', t.json, notNull)
        .addColumn('created_at', t.ts, notNull)
        .execute();
      await index(db, 'audit_log', ['parent_id', 'created_at']);
    },
  };
};
