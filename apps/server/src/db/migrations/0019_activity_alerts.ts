import { sql } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 24: alerts on typed text (docs/activity-alerts.md).
// - children: the built-in alert categories turned on (self-harm for every child, new or not) and
//   the parent's own words;
// - keystroke_lines: the alert a line raised (category, words) and when (server time, for the
//   grouped notification);
// - activity_alert_false_reports: how often the parent unflagged an alert, per child and word;
// - notifications.trigger accepts 'activityAlert'. Self-contained: the CHECK is rebuilt from what
//   the database holds, whatever other migrations added to it.

const NEW_TRIGGER = 'activityAlert';

export const activityAlertsMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  return {
    async up(db: MigrationDb) {
      await db.schema
        .alterTable('children')
        .addColumn('alert_categories', t.json, (c) => c.notNull().defaultTo('["selfHarm"]'))
        .execute();
      await db.schema
        .alterTable('children')
        .addColumn('alert_words', t.json, (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('keystroke_lines').addColumn('alert_category', t.text).execute();
      await db.schema.alterTable('keystroke_lines').addColumn('alert_words', t.json).execute();
      await db.schema.alterTable('keystroke_lines').addColumn('alerted_at', t.ts).execute();
      await db.schema
        .createIndex('keystroke_lines_alerted_at_idx')
        .on('keystroke_lines')
        .column('alerted_at')
        .execute();
      await db.schema
        .createTable('activity_alert_false_reports')
        .addColumn('child_id', t.id, (c) =>
          c.notNull().references('children.id').onDelete('cascade'),
        )
        .addColumn('category', t.text, (c) => c.notNull())
        .addColumn('word', t.text, (c) => c.notNull())
        .addColumn('count', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('last_reported_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('activity_alert_false_reports_pk', [
          'child_id',
          'category',
          'word',
        ])
        .execute();
      if (dialect === 'sqlite') await widenSqliteTriggerCheck(db);
      else await widenPostgresTriggerCheck(db);
    },
    async down(db: MigrationDb) {
      // the wider trigger CHECK stays: rows with the new trigger are deleted instead
      await sql`DELETE FROM notifications WHERE ${sql.ref('trigger')} = ${NEW_TRIGGER}`.execute(db);
      await db.schema.dropTable('activity_alert_false_reports').execute();
      await db.schema.dropIndex('keystroke_lines_alerted_at_idx').execute();
      for (const column of ['alerted_at', 'alert_words', 'alert_category']) {
        await db.schema.alterTable('keystroke_lines').dropColumn(column).execute();
      }
      for (const column of ['alert_words', 'alert_categories']) {
        await db.schema.alterTable('children').dropColumn(column).execute();
      }
    },
  };
};

/** `trigger in ('a', 'b')` → `trigger in ('a', 'b', 'activityAlert')`, whatever the list holds. */
function widenedCheck(definition: string): string {
  if (definition.includes(`'${NEW_TRIGGER}'`)) return definition;
  const widened = definition.replace(
    /(trigger\W*\s+in\s*\()([^)]*)\)/i,
    (_, head: string, list: string) => `${head}${list}, '${NEW_TRIGGER}')`,
  );
  if (widened === definition) throw new Error(`no trigger CHECK found in: ${definition}`);
  return widened;
}

// SQLite cannot alter a CHECK: the table is rebuilt (https://sqlite.org/lang_altertable.html,
// "other kinds of table schema changes"), and its indexes and triggers (family versions, 0014)
// are created again from their stored SQL.
async function widenSqliteTriggerCheck(db: MigrationDb) {
  const table = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'notifications'`.execute(db);
  const createSql = table.rows[0]?.sql;
  if (!createSql) throw new Error('notifications table not found');
  if (createSql.includes(`'${NEW_TRIGGER}'`)) return;
  const dependents = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master
    WHERE tbl_name = 'notifications' AND type IN ('index', 'trigger') AND sql IS NOT NULL`.execute(
    db,
  );
  const newTableSql = widenedCheck(createSql).replace(
    /^CREATE TABLE\s+("?)notifications\1/i,
    'CREATE TABLE "notifications_rebuilt"',
  );
  await sql.raw(newTableSql).execute(db);
  await sql.raw('INSERT INTO notifications_rebuilt SELECT * FROM notifications').execute(db);
  await sql.raw('DROP TABLE notifications').execute(db);
  await sql.raw('ALTER TABLE notifications_rebuilt RENAME TO notifications').execute(db);
  for (const dependent of dependents.rows) await sql.raw(dependent.sql).execute(db);
}

async function widenPostgresTriggerCheck(db: MigrationDb) {
  const checks = await sql<{ name: string; definition: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint
    WHERE conrelid = 'notifications'::regclass AND contype = 'c'`.execute(db);
  const check = checks.rows.find((row) => /trigger/i.test(row.definition));
  if (!check) throw new Error('notifications trigger CHECK not found');
  if (check.definition.includes(`'${NEW_TRIGGER}'`)) return;
  const values = [...check.definition.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
  const list = [...values, NEW_TRIGGER].map((value) => `'${value}'`).join(', ');
  await sql.raw(`ALTER TABLE notifications DROP CONSTRAINT "${check.name}"`).execute(db);
  await sql
    .raw(`ALTER TABLE notifications ADD CONSTRAINT "${check.name}" CHECK ("trigger" IN (${list}))`)
    .execute(db);
}
