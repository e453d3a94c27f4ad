import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** A migration receives the dialect so it can pick portable column types (schema.ts explains them). */
export type PortableMigration = (dialect: DialectName) => Migration;

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the database as it was then
export type MigrationDb = Kysely<any>;

export function columnTypes(dialect: DialectName) {
  const isSqlite = dialect === 'sqlite';
  return {
    id: 'text',
    ts: 'text',
    text: 'text',
    int: 'integer',
    bigint: isSqlite ? 'integer' : 'bigint',
    bool: isSqlite ? 'integer' : 'boolean',
    json: isSqlite ? 'text' : 'jsonb',
  } as const;
}

export function boolDefault(dialect: DialectName, value: boolean) {
  return sql.raw(dialect === 'sqlite' ? (value ? '1' : '0') : value ? 'true' : 'false');
}

/** `col IN ('a', 'b')` CHECK for enum columns. */
export function oneOf(column: string, values: readonly string[]) {
  return (c: ColumnDefinitionBuilder) =>
    c.check(sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`));
}
