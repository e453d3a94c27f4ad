import type { KyselyPlugin, OperationNode } from 'kysely';
import { sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { dialectOf } from '../src/db/database.ts';
import { CACHED_DASHBOARD_OPERATIONS } from '../src/pairql/read-cache.ts';
import { addChild, addKey, addKeychain, assign, connectedMac, website } from './fixtures.ts';
import { createTestServer } from './harness.ts';

// Issue 11: a cached answer is only as fresh as the family version, and the version moves only with
// the tables that have the version triggers (migrations 0014…). A cached read that starts reading
// a new table must have that table versioned too: this test reads the tables each cached dashboard
// read really queries (a plugin on a second app sharing the database) and compares them with the
// tables that carry a family-version trigger in the database itself.

const server = await createTestServer();
afterAll(async () => server.close());

/** Tables queried by anything run through it. */
function tableRecorder() {
  const tables = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const kind = (node as OperationNode).kind;
    if (kind === 'TableNode') {
      const name = (node as { table: { identifier: { name: string } } }).table.identifier.name;
      tables.add(name);
    }
    for (const value of Object.values(node)) visit(value);
  };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      visit(args.node);
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return { tables, plugin };
}

/** The database's tables (a query's TableNodes also name aliases: `cu.id`). */
async function allTables(): Promise<Set<string>> {
  const rows =
    dialectOf(server.config) === 'postgres'
      ? await sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(
          server.db,
        )
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
          server.db,
        );
  return new Set(rows.rows.map((row) => row.name));
}

async function versionedTables(): Promise<Set<string>> {
  const rows =
    dialectOf(server.config) === 'postgres'
      ? await sql<{
          name: string;
        }>`select distinct event_object_table as name from information_schema.triggers where trigger_name like '%family_version%'`.execute(
          server.db,
        )
      : await sql<{
          name: string;
        }>`select distinct tbl_name as name from sqlite_master where type = 'trigger' and name like '%family_version%'`.execute(
          server.db,
        );
  return new Set(rows.rows.map((row) => row.name));
}

/** Read to authenticate and to find the version; the answer itself never comes from them. */
const LOOKUP_TABLES = ['dashboard_sessions', 'family_versions'];

test('every table a cached dashboard read queries has the family-version triggers', async () => {
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId, { name: 'Sam' });
  const keychainId = await addKeychain(server, parent.adminId, { name: 'School' });
  await addKey(server, keychainId, website('khanacademy.org'));
  await assign(server, childId, keychainId);
  await connectedMac(server, parent.adminId, { childId });

  const versioned = await versionedTables();
  const tables = await allTables();
  expect(versioned.size).toBeGreaterThan(5);
  const inputs: Record<string, unknown> = { GetUser: childId };
  for (const op of Object.keys(CACHED_DASHBOARD_OPERATIONS)) {
    const recorder = tableRecorder();
    const app = await buildApp({
      config: server.config,
      db: server.db.withPlugin(recorder.plugin),
      clock: server.clock,
    });
    const response = await app.inject({
      method: 'POST',
      url: `/pairql/dashboard/${op}`,
      headers: { 'content-type': 'application/json', 'x-admintoken': parent.token },
      payload: inputs[op] === undefined ? '' : JSON.stringify(inputs[op]),
    });
    await app.close();
    expect(response.statusCode, `${op}: ${response.body}`).toBe(200);
    const read = [...recorder.tables].filter((table) => tables.has(table));
    const unversioned = read.filter(
      (table) => !versioned.has(table) && !LOOKUP_TABLES.includes(table),
    );
    expect(read.length, op).toBeGreaterThan(LOOKUP_TABLES.length);
    expect(unversioned, `${op} reads tables without the version triggers`).toEqual([]);
  }
});
