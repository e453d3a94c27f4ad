import type { ColumnDefinitionBuilder } from 'kysely';
import { columnTypes, type MigrationDb, oneOf, type PortableMigration } from './types.ts';

// Issue 12: two-factor sign-in (authenticator app, recovery codes, passkeys, the challenges between
// the password and the second step) and the family's data export. Second factors belong to the
// person (person_id: the owner's parents.id or a co-parent's id), never to the family account.
export const twoFactorExportMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  const family = (c: ColumnDefinitionBuilder) =>
    c.references('parents.id').onDelete('cascade').notNull();
  const index = (db: MigrationDb, table: string, columns: string[]) =>
    db.schema
      .createIndex(`${table}_${columns.join('_')}_idx`)
      .on(table)
      .columns(columns)
      .execute();

  return {
    async up(db: MigrationDb) {
      // one authenticator app per person; the secret AES-256-GCM encrypted; confirmed_at null while
      // enrolling; last_time_step refuses a code's reuse
      await db.schema
        .createTable('totp_factors')
        .addColumn('person_id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, family)
        .addColumn('secret_encrypted', t.text, notNull)
        .addColumn('confirmed_at', t.ts)
        .addColumn('last_time_step', t.bigint)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('updated_at', t.ts, notNull)
        .execute();
      await index(db, 'totp_factors', ['parent_id']);

      // HMAC of each normalised recovery code; used_at set once
      await db.schema
        .createTable('recovery_codes')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, family)
        .addColumn('person_id', t.id, notNull)
        .addColumn('code_hash', t.text, notNull)
        .addColumn('used_at', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .execute();
      await index(db, 'recovery_codes', ['person_id']);

      // between the password (or magic link) and the second step: only the hash of the challenge
      await db.schema
        .createTable('second_factor_challenges')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('token_hash', t.text, (c) => c.notNull().unique())
        .addColumn('parent_id', t.id, family)
        .addColumn('person_id', t.id, notNull)
        .addColumn('first_step', t.text, notNull)
        .addColumn('expires_at', t.ts, notNull)
        .addColumn('used_at', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .execute();

      await db.schema
        .createTable('passkeys')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, family)
        .addColumn('person_id', t.id, notNull)
        .addColumn('credential_id', t.text, (c) => c.notNull().unique())
        .addColumn('public_key', t.text, notNull)
        .addColumn('counter', t.bigint, notNull)
        .addColumn('transports', t.json, notNull)
        .addColumn('name', t.text, notNull)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('last_used_at', t.ts)
        .execute();
      await index(db, 'passkeys', ['person_id']);

      // the WebAuthn challenge of one registration or sign-in ceremony, single use
      await db.schema
        .createTable('webauthn_challenges')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('challenge', t.text, notNull)
        .addColumn('purpose', t.text, (c) =>
          oneOf('purpose', ['registration', 'login'])(c.notNull()),
        )
        .addColumn('parent_id', t.id, (c) => c.references('parents.id').onDelete('cascade'))
        .addColumn('person_id', t.id)
        .addColumn('second_factor_challenge_id', t.id, (c) =>
          c.references('second_factor_challenges.id').onDelete('cascade'),
        )
        .addColumn('expires_at', t.ts, notNull)
        .addColumn('used_at', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .execute();

      await db.schema
        .createTable('data_exports')
        .addColumn('id', t.id, (c) => c.primaryKey())
        .addColumn('parent_id', t.id, family)
        .addColumn('person_id', t.id, notNull)
        .addColumn('status', t.text, (c) =>
          oneOf('status', ['pending', 'building', 'ready', 'failed'])(c.notNull()),
        )
        .addColumn('progress', t.int, notNull)
        .addColumn('storage_key', t.text)
        .addColumn('size_bytes', t.bigint)
        .addColumn('error', t.text)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('updated_at', t.ts, notNull)
        .addColumn('expires_at', t.ts)
        .execute();
      await index(db, 'data_exports', ['parent_id']);
    },
    async down(db: MigrationDb) {
      for (const table of [
        'data_exports',
        'webauthn_challenges',
        'passkeys',
        'second_factor_challenges',
        'recovery_codes',
        'totp_factors',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
};
