import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase, dialectOf, migrateToLatest } from '../src/db/database.ts';
import { backupSqlite } from '../src/backup.ts';
import { addChild } from './fixtures.ts';
import { createTestServer } from './harness.ts';

// `npm run backup -- <file>`: an online copy of the SQLite database (SQLite's backup API) taken
// while the server runs and writes; the copy restores into a server that starts on it.
// PostgreSQL deployments use pg_dump (README), so this file runs on SQLite only.

const onSqlite = !process.env.TEST_DATABASE_URL?.startsWith('postgres');
const scratch = mkdtempSync(path.join(tmpdir(), 'keyward-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.runIf(onSqlite)('SQLite backup', () => {
  test('a backup taken during writes restores into a server that starts on it', async () => {
    const server = await createTestServer();
    try {
      const parent = await server.signUpVerifiedParent();
      await addChild(server, parent.adminId, { name: 'Before the backup' });

      // Writes keep going while the copy is taken.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await addChild(server, parent.adminId, { name: `During ${written++}` });
          // better-sqlite3 answers synchronously: let the backup's own steps run in between.
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const file = path.join(scratch, 'copy.sqlite');
      const pages = await backupSqlite(server.config.sqliteFile, file);
      writing = false;
      await writer;
      expect(pages).toBeGreaterThan(0);
      expect(written).toBeGreaterThan(0);
      await expect(backupSqlite(server.config.sqliteFile, file)).rejects.toThrow('already exists');

      // Restore: the copy becomes DATA_DIR/keyward.sqlite of a new server.
      const restoredDir = path.join(scratch, 'restored');
      const config = loadConfig({
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: restoredDir,
        DATABASE_URL: '',
        HMAC_KEY: server.config.hmacKey.toString('hex'),
        ENCRYPTION_KEY: server.config.encryptionKey.toString('hex'),
        WEB_DIST: path.join(restoredDir, 'web'),
      });
      const { mkdirSync } = await import('node:fs');
      mkdirSync(restoredDir, { recursive: true });
      copyFileSync(file, config.sqliteFile);
      expect(existsSync(`${config.sqliteFile}-wal`)).toBe(false);
      const db = createDatabase(config);
      await migrateToLatest(db, dialectOf(config));
      const restored = await buildApp({ config, db, mailer: { async send() {} } });
      try {
        const login = await restored.inject({
          method: 'POST',
          url: '/pairql/dashboard/Login',
          payload: JSON.stringify({ email: parent.email, password: parent.password }),
        });
        expect(login.statusCode).toBe(200);
        const users = await restored.inject({
          method: 'POST',
          url: '/pairql/dashboard/GetUsers',
          headers: { 'x-admintoken': login.json().token },
        });
        expect(users.statusCode).toBe(200);
        const names = (users.json() as { name: string }[]).map((child) => child.name);
        expect(names).toContain('Before the backup');
        // One consistent snapshot: a prefix of the children written during the copy.
        const during = names.filter((name) => name.startsWith('During '));
        const indexes = during.map((name) => Number(name.slice(7))).sort((a, b) => a - b);
        expect(indexes).toEqual(indexes.map((_, i) => i));
      } finally {
        await restored.close();
        await db.destroy();
      }
    } finally {
      await server.close();
    }
  });

  test('the script refuses a PostgreSQL configuration and names pg_dump', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, '../src/backup.ts'), 'out.dump'],
      {
        env: {
          ...process.env,
          DATABASE_URL: 'postgres://keyward@127.0.0.1:1/keyward',
          DATA_DIR: scratch,
        },
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('pg_dump --format=custom --file=out.dump');
  });
});
