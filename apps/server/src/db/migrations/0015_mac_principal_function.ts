import { sql } from 'kysely';
import type { MigrationDb, PortableMigration } from './types.ts';

// Issue 11 (read path), PostgreSQL only: the Mac token lookup of every PairQL request
// (devices/device-auth.ts, findMacRequestPrincipal) as a PL/pgSQL function. PostgreSQL parsed and
// planned the query on every check-in (about 0.2 ms of its CPU, more than executing it); a
// function keeps its plan per connection. The query is the same as the SQLite one in device-auth.ts.
export const macPrincipalFunctionMigration: PortableMigration = (dialect) => ({
  async up(db: MigrationDb) {
    if (dialect !== 'postgres') return;
    await sql
      .raw(`CREATE FUNCTION keyward_mac_principal(p_token_hash text, p_now text)
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
        WHERE t.token_hash = p_token_hash AND (t.deleted_at IS NULL OR t.deleted_at > p_now);
      END $$`)
      .execute(db);
  },
  async down(db: MigrationDb) {
    if (dialect !== 'postgres') return;
    await sql.raw('DROP FUNCTION keyward_mac_principal(text, text)').execute(db);
  },
});
