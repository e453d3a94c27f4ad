import { sql } from 'kysely';
import type { migrateToLatest } from '../src/db/database.ts';

// Rows for migration tests, in a database as an older migration left it.

type AnyDb = Parameters<typeof migrateToLatest>[0];

/** Inserts a row with `values`, and a placeholder for every other NOT NULL column without default. */
export async function insertRow(db: AnyDb, table: string, values: Record<string, string>) {
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
