import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import { migrationProvider } from '../src/db/migrations/index.ts';
import { insertRow } from './migration-rows.ts';

// Issue 33, migration 0027 on SQLite: a removal password stored as typed (0025) leaves the
// database; the device keeps that it has one (`cleared`, which never decrypts), a device without
// one stays without.

const dir = mkdtempSync(join(tmpdir(), 'keyward-0027-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('0027 removes removal passwords kept as typed, and keeps which devices had one', async () => {
  const db = createDatabase({ databaseUrl: undefined, sqliteFile: join(dir, 'keyward.sqlite') });
  try {
    const migrator = new Migrator({
      db,
      provider: migrationProvider('sqlite'),
      allowUnorderedMigrations: true,
    });
    expect((await migrator.migrateTo('0026_screen_time')).error).toBeUndefined();
    await insertRow(db, 'parents', { id: 'p1', subscription_status: 'paid' });
    await insertRow(db, 'computers', {
      id: 'c1',
      parent_id: 'p1',
      kind: 'dns',
      dns_removal_password: 'open sesame',
    });
    await insertRow(db, 'computers', {
      id: 'c2',
      parent_id: 'p1',
      serial_number: 'dns-c2',
      kind: 'dns',
    });

    await migrateToLatest(db, 'sqlite');

    const rows = await sql<{ id: string; sealed: string | null }>`
      SELECT id, dns_removal_password_encrypted AS sealed FROM computers ORDER BY id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'c1', sealed: 'cleared' },
      { id: 'c2', sealed: null },
    ]);
    const columns = await sql<{ name: string }>`
      SELECT name FROM pragma_table_info('computers')`.execute(db);
    expect(columns.rows.map((column) => column.name)).not.toContain('dns_removal_password');
    const dump = JSON.stringify((await sql`SELECT * FROM computers`.execute(db)).rows);
    expect(dump).not.toContain('sesame');
  } finally {
    await db.destroy();
  }
});
