import { sql } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 33: an Apple profile's removal password is kept encrypted (AES-256-GCM with the server's
// encryption key, services/tokens.ts, as the other stored secrets), no longer as the parent typed
// it. A migration has no key to encrypt with, so a password stored before this one is not carried
// over: the row keeps a mark that it has one (`cleared`, which never decrypts), and its profile
// answers in words that the device must be connected again for a new one.
export const CLEARED_REMOVAL_PASSWORD = 'cleared';

export const dnsRemovalPasswordEncryptedMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  return {
    async up(db: MigrationDb) {
      await db.schema
        .alterTable('computers')
        .addColumn('dns_removal_password_encrypted', t.text)
        .execute();
      await db
        .updateTable('computers')
        .set({ dns_removal_password_encrypted: CLEARED_REMOVAL_PASSWORD })
        .where('dns_removal_password', 'is not', null)
        .execute();
      await db.schema.alterTable('computers').dropColumn('dns_removal_password').execute();
    },
    async down(db: MigrationDb) {
      await db.schema.alterTable('computers').addColumn('dns_removal_password', t.text).execute();
      // the passwords cannot be read back without the key: the devices keep that they had one
      await db
        .updateTable('computers')
        .set({ dns_removal_password: sql.lit(CLEARED_REMOVAL_PASSWORD) })
        .where('dns_removal_password_encrypted', 'is not', null)
        .execute();
      await db.schema
        .alterTable('computers')
        .dropColumn('dns_removal_password_encrypted')
        .execute();
    },
  };
};
