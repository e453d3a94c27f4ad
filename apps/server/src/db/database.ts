import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { migrationProvider } from './migrations/index.ts';
import type { DialectName } from './migrations/types.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export function dialectOf(config: Pick<Config, 'databaseUrl'>): DialectName {
  return config.databaseUrl ? 'postgres' : 'sqlite';
}

export function createDatabase(config: Pick<Config, 'databaseUrl' | 'sqliteFile'>): Db {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection can be cut by the server (restart, failover); the pool replaces it on the
    // next query. Without this listener the error would crash the process.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(path.dirname(config.sqliteFile), { recursive: true });
  const sqlite = new SqliteDatabase(config.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: reusingStatements(sqlite) }),
  });
}

/**
 * Kysely prepares every query again; preparing was the largest single cost of a read operation on
 * SQLite (npm run bench -- --api). The same SQL text reuses its prepared statement (statements run
 * synchronously, so one is never used by two queries at once; a busy one is not reused).
 */
function reusingStatements(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(sqlText: string) {
      const cached = cache.get(sqlText);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sqlText);
      if (cache.size >= 1000) cache.clear();
      cache.set(sqlText, statement);
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

export async function migrateToLatest(db: Db, dialect: DialectName): Promise<void> {
  // Migrations from parallel branches may land out of order; each runs once whatever its place.
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration failed${failed ? ` in ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}
