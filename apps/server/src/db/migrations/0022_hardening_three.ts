import { sql } from 'kysely';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 31 (hardening, round three).
// - Finding 1: the polled reads list each device's newest pending unlock requests and count the
//   rest; this index answers both from the index alone, however many a child sent.
// - Finding 1: a browser's token (a computer of kind `browser`) no longer stands for a Mac: the
//   PostgreSQL lookup of a Mac's token (keyward_mac_principal, migration 0015) reads Macs only,
//   like the SQLite query in devices/device-auth.ts.
// - Finding 4: a push action token names the notification method (phone) it was sent to, and is
//   deleted with it (foreign key cascade), so removing a phone revokes its buttons.
// - Finding 3: a connection code remembers the public address of the parent session that created
//   it (a child's device at home usually shares it) and when it was used, so the same right code
//   sent again while its first use is in flight is not counted as a wrong guess.
export const hardeningThreeMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  return {
    async up(db: MigrationDb) {
      await db.schema
        .createIndex('unlock_requests_computer_user_id_status_created_at_id_idx')
        .on('unlock_requests')
        .columns(['computer_user_id', 'status', 'created_at', 'id'])
        .execute();
      await db.schema.alterTable('connection_codes').addColumn('creator_ip', t.text).execute();
      await db.schema.alterTable('connection_codes').addColumn('used_at', t.ts).execute();
      await db.schema
        .createIndex('connection_codes_creator_ip_idx')
        .on('connection_codes')
        .column('creator_ip')
        .execute();
      // Finding 4: a push notification's "Allow 15 minutes" / "Deny" token belongs to the phone
      // (notification method) it was sent to, and goes with it
      await db.schema
        .alterTable('push_action_tokens')
        .addColumn('method_id', t.id, (c) =>
          c.references('notification_methods.id').onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('push_action_tokens_method_id_idx')
        .on('push_action_tokens')
        .column('method_id')
        .execute();
      if (dialect === 'postgres') await macPrincipalFunction(db, true);
    },
    async down(db: MigrationDb) {
      if (dialect === 'postgres') await macPrincipalFunction(db, false);
      await db.schema.dropIndex('push_action_tokens_method_id_idx').execute();
      await db.schema.alterTable('push_action_tokens').dropColumn('method_id').execute();
      await db.schema.dropIndex('connection_codes_creator_ip_idx').execute();
      await db.schema.alterTable('connection_codes').dropColumn('used_at').execute();
      await db.schema.alterTable('connection_codes').dropColumn('creator_ip').execute();
      await db.schema
        .dropIndex('unlock_requests_computer_user_id_status_created_at_id_idx')
        .execute();
    },
  };
};

async function macPrincipalFunction(db: MigrationDb, macsOnly: boolean): Promise<void> {
  await sql
    .raw(`CREATE OR REPLACE FUNCTION keyward_mac_principal(p_token_hash text, p_now text)
      RETURNS TABLE (
        computer_user_id text, child_id text, parent_id text, computer_id text, app_version text,
        is_admin boolean, filter_version text, os_version text, app_release_channel text,
        family_version bigint, shared_version bigint
      )
      LANGUAGE plpgsql STABLE AS $$
      #variable_conflict use_column
      BEGIN
        RETURN QUERY
        SELECT t.computer_user_id, t.child_id, c.parent_id, cu.computer_id, cu.app_version,
          cu.is_admin, m.filter_version, m.os_version, m.app_release_channel,
          (SELECT fv.version FROM family_versions fv WHERE fv.parent_id = c.parent_id),
          (SELECT gv.version FROM family_versions gv WHERE gv.parent_id = '*')
        FROM mac_app_tokens t
        JOIN computer_users cu ON cu.id = t.computer_user_id
        JOIN children c ON c.id = t.child_id
        JOIN computers m ON m.id = cu.computer_id
        WHERE t.token_hash = p_token_hash AND (t.deleted_at IS NULL OR t.deleted_at > p_now)
          ${macsOnly ? "AND m.kind <> 'browser'" : ''};
      END $$`)
    .execute(db);
}
