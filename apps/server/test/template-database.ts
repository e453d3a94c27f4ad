import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';

// Vitest global set-up (vitest.config.ts): the migrations run once per test run, into a template
// that every test server copies (harness.ts) instead of migrating a fresh database itself.
// SQLite: a migrated file in a temporary folder; PostgreSQL (TEST_DATABASE_URL): a migrated
// database `kw_template_<random>` that `CREATE DATABASE … TEMPLATE` copies. Both are removed at
// the end of the run.

export type TemplateDatabase = { sqliteFile: string } | { postgresDatabase: string };

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: TemplateDatabase;
  }
}

export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl?.startsWith('postgres')) {
    const name = `kw_template_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ databaseUrl: url.toString(), sqliteFile: '' });
    await migrateToLatest(db, 'postgres');
    // no connection may stay open on a template while it is copied
    await db.destroy();
    project.provide('templateDatabase', { postgresDatabase: name });
    return async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'keyward-test-template-'));
  const sqliteFile = path.join(dir, 'template.sqlite');
  const db = createDatabase({ databaseUrl: undefined, sqliteFile });
  await migrateToLatest(db, 'sqlite');
  // closing checkpoints the write-ahead log into the file: the file alone is the database
  await db.destroy();
  project.provide('templateDatabase', { sqliteFile });
  return () => rmSync(dir, { recursive: true, force: true });
}
