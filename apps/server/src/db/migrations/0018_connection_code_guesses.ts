import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 19 (finding 2): a wrong connection code cannot be pinned to a code, so every outstanding
// code counts the wrong guesses made anywhere while it waits (devices/connection-codes.ts), and is
// revoked when it has seen too many.
export const connectionCodeGuessesMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  return {
    async up(db: MigrationDb) {
      await db.schema
        .alterTable('connection_codes')
        .addColumn('wrong_guesses', t.int, (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: MigrationDb) {
      await db.schema.alterTable('connection_codes').dropColumn('wrong_guesses').execute();
    },
  };
};
