import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import { migrationProvider } from '../src/db/migrations/index.ts';
import { insertRow } from './migration-rows.ts';

// Issue 24, migration 0019 on SQLite, from a database that already has notification rules: the
// notifications table is rebuilt for the wider trigger CHECK with its rows, its index and its
// family-version triggers (0014); children get self-harm alerts on.

const dir = mkdtempSync(join(tmpdir(), 'keyward-0019-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
