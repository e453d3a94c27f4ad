import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 22: Keyward for Chrome. A browser the filter extension runs in is a computer of kind
// `browser` (its requests, activity, presence and security events are a computer user's, like a
// Mac's); `platform` says where the browser runs and `browser` which one it is.
export const browserDevicesMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  return {
    async up(db: MigrationDb) {
      await db.schema
        .alterTable('computers')
        .addColumn('kind', t.text, (c) => c.notNull().defaultTo('mac'))
        .execute();
      await db.schema.alterTable('computers').addColumn('platform', t.text).execute();
      await db.schema.alterTable('computers').addColumn('browser', t.text).execute();
    },
    async down(db: MigrationDb) {
      await db.schema.alterTable('computers').dropColumn('browser').execute();
      await db.schema.alterTable('computers').dropColumn('platform').execute();
      await db.schema.alterTable('computers').dropColumn('kind').execute();
    },
  };
};
