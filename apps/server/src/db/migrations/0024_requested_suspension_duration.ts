import { sql } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 32: a decision overwrote the length the child asked for with the granted one (`duration`
// 600 → 300), so neither the parent nor the browser saw what had been asked. `requested_duration`
// keeps what the child asked; `duration` stays what is granted (what every device reads). Rows
// decided before this migration only know their `duration`: they keep it as their request too.
export const requestedSuspensionDurationMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const tables = ['mac_suspend_filter_requests', 'ios_suspend_filter_requests'] as const;
  return {
    async up(db: MigrationDb) {
      for (const table of tables) {
        await db.schema.alterTable(table).addColumn('requested_duration', t.int).execute();
        await sql`UPDATE ${sql.table(table)} SET requested_duration = duration`.execute(db);
      }
    },
    async down(db: MigrationDb) {
      for (const table of tables) {
        await db.schema.alterTable(table).dropColumn('requested_duration').execute();
      }
    },
  };
};
