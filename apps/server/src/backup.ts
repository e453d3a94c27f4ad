import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { ConfigError, loadConfig } from './config.ts';

// `npm run backup -- <file>`: a consistent copy of the SQLite database, taken with SQLite's online
// backup API while the server keeps running (readers and writers are not stopped; the copy is one
// snapshot). To restore: stop the server, put the copy at DATA_DIR/keyward.sqlite (remove any
// keyward.sqlite-wal / -shm files next to it), start. PostgreSQL is backed up with pg_dump.

export async function backupSqlite(sourceFile: string, destination: string): Promise<number> {
  if (!existsSync(sourceFile)) throw new Error(`No SQLite database at ${sourceFile}`);
  if (existsSync(destination)) throw new Error(`${destination} already exists; choose a new file`);
  mkdirSync(path.dirname(destination), { recursive: true });
  const source = new SqliteDatabase(sourceFile, { readonly: true, fileMustExist: true });
  try {
    // Copied in one step: a multi-step copy restarts whenever the running server writes in
    // between, and might never finish on a busy server. One step reads one snapshot (WAL mode:
    // the server's writers are not blocked meanwhile).
    const result = await source.backup(destination, {
      progress: ({ totalPages }) => totalPages + 1000,
    });
    return result.totalPages;
  } finally {
    source.close();
  }
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) {
    console.error('Usage: npm run backup -- <file>   (a new file to write the copy to)');
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is PostgreSQL: back it up with\n' +
        `  pg_dump --format=custom --file=${target} "$DATABASE_URL"\n` +
        'and restore with pg_restore --clean --if-exists --dbname="$DATABASE_URL" <file>.',
    );
    process.exit(1);
  }
  const destination = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
  const pages = await backupSqlite(config.sqliteFile, destination);
  console.log(`Backed up ${config.sqliteFile} to ${destination} (${pages} pages).`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
