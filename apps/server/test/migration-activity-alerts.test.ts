import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import { migrationProvider } from '../src/db/migrations/index.ts';

// Issue 24, migration 0019 on SQLite, from a database that already has notification rules: the
// notifications table is rebuilt for the wider trigger CHECK with its rows, its index and its
// family-version triggers (0014); children get self-harm alerts on.

const dir = mkdtempSync(join(tmpdir(), 'keyward-0019-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type AnyDb = Parameters<typeof migrateToLatest>[0];

/** Inserts a row with `values`, and a placeholder for every other NOT NULL column without default. */
async function insertRow(db: AnyDb, table: string, values: Record<string, string>) {
  const columns = await sql<{ name: string; type: string; notnull: number; dflt_value: unknown }>`
    SELECT name, type, "notnull", dflt_value FROM pragma_table_info(${table})`.execute(db);
  const row: Record<string, string | number> = { ...values };
  for (const column of columns.rows) {
    if (column.name in row || !column.notnull || column.dflt_value !== null) continue;
    row[column.name] = /int/i.test(column.type)
      ? 0
      : /_at$/.test(column.name)
        ? '2025-01-01T00:00:00.000Z'
        : column.name === 'config'
          ? '{"case":"email","email":"a@example.com"}'
          : `${column.name}-placeholder`;
  }
  const names = Object.keys(row);
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))})
    VALUES (${sql.join(names.map((name) => row[name]))})`.execute(db);
}

test('0019 keeps the rules, their index and triggers, and accepts activityAlert', async () => {
  const db = createDatabase({ databaseUrl: undefined, sqliteFile: join(dir, 'keyward.sqlite') });
  try {
    const migrator = new Migrator({
      db,
      provider: migrationProvider('sqlite'),
      allowUnorderedMigrations: true,
    });
    const before = await migrator.migrateTo('0018_connection_code_guesses');
    expect(before.error).toBeUndefined();
    // a family with one rule, its required columns filled with placeholders
    await insertRow(db, 'parents', { id: 'p1', subscription_status: 'paid' });
    await insertRow(db, 'notification_methods', { id: 'm1', parent_id: 'p1' });
    await insertRow(db, 'notifications', {
      id: 'n1',
      parent_id: 'p1',
      method_id: 'm1',
      trigger: 'unlockRequestSubmitted',
    });
    const start = await sql<{ version: number }>`
      SELECT version FROM family_versions WHERE parent_id = 'p1'`.execute(db);

    await migrateToLatest(db, 'sqlite');

    const rules = await sql<{ id: string; trigger: string }>`
      SELECT id, ${sql.ref('trigger')} FROM notifications`.execute(db);
    expect(rules.rows).toEqual([{ id: 'n1', trigger: 'unlockRequestSubmitted' }]);
    const schema = await sql<{ type: string; name: string }>`
      SELECT type, name FROM sqlite_master WHERE tbl_name = 'notifications' ORDER BY name`.execute(
      db,
    );
    expect(schema.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'notifications',
        'notifications_family_version_delete',
        'notifications_family_version_insert',
        'notifications_family_version_update',
      ]),
    );
    expect(schema.rows.some((row) => row.type === 'index' && /method/.test(row.name))).toBe(true);

    // the new trigger is accepted, an unknown one still refused; the family version is bumped
    await sql`UPDATE notifications SET ${sql.ref('trigger')} = 'activityAlert'`.execute(db);
    await expect(
      sql`UPDATE notifications SET ${sql.ref('trigger')} = 'somethingElse'`.execute(db),
    ).rejects.toThrow(/CHECK/);
    const version = await sql<{ version: number }>`
      SELECT version FROM family_versions WHERE parent_id = 'p1'`.execute(db);
    expect(Number(version.rows[0]?.version)).toBe(Number(start.rows[0]?.version) + 1);
  } finally {
    await db.destroy();
  }
});
