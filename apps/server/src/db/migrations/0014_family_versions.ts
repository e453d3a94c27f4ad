import { sql } from 'kysely';
import type { MigrationDb, PortableMigration } from './types.ts';

// Issue 11 (read path): a per-family data version kept by the database itself. Every insert, update
// or delete of a row that feeds a cached answer (pairql/read-cache.ts) bumps
// family_versions.version of each family the row belongs to, in the same transaction, whoever
// writes it: dashboard and device operations, jobs, Stripe webhooks, another server instance on the
// same PostgreSQL. The row '*' is the version of data shared by every family (releases).
//
// On PostgreSQL the bumps are deferred constraint triggers: they run at commit, so the family's
// version row is locked only for the commit, not for the whole transaction (no new lock-order
// deadlocks between a family's concurrent writes).

export const GLOBAL_VERSION_KEY = '*';

/** The families a row of a table belongs to, as SQL selecting `parent_id`s, for the row `r`. */
function familiesOf(table: string, r: string): string {
  const assignedFamilies = (keychainId: string) =>
    `SELECT c.parent_id FROM child_keychains ck JOIN children c ON c.id = ck.child_id WHERE ck.keychain_id = ${keychainId}`;
  const childFamily = `SELECT parent_id FROM children WHERE id = ${r}.child_id`;
  switch (table) {
    case 'parents':
      return `SELECT ${r}.id`;
    case 'children':
    case 'computers':
    case 'notifications':
    case 'notification_methods':
      return `SELECT ${r}.parent_id`;
    // a public keychain is also shown (GetUsers, CheckIn_v2) to the families of the children
    // it is assigned to
    case 'keychains':
      return `SELECT ${r}.parent_id UNION ${assignedFamilies(`${r}.id`)}`;
    case 'keys':
      return `SELECT parent_id FROM keychains WHERE id = ${r}.keychain_id UNION ${assignedFamilies(`${r}.keychain_id`)}`;
    case 'computer_users':
    case 'child_keychains':
    case 'blocked_mac_apps':
      return childFamily;
    case 'device_presence':
      return `SELECT c.parent_id FROM computer_users cu JOIN children c ON c.id = cu.child_id WHERE cu.id = ${r}.computer_user_id`;
    case 'releases':
      return `SELECT '${GLOBAL_VERSION_KEY}'`;
    default:
      throw new Error(`no family for ${table}`);
  }
}

const VERSIONED_TABLES = [
  'parents',
  'children',
  'computers',
  'computer_users',
  'device_presence',
  'keychains',
  'keys',
  'child_keychains',
  'blocked_mac_apps',
  'notifications',
  'notification_methods',
  'releases',
] as const;

/**
 * An update of device_presence that only refreshes last_seen_at of a computer user that was online
 * changes no answer: its status stays the same, and a cached answer showing it online is valid only
 * until last_seen_at + 100 s anyway (read-cache horizons). A status can change only with the filter
 * state, or when the computer user was offline (no sign of life for 100 s; 90 s here, for clocks of
 * two instances that differ a little).
 */
function presenceChanged(dialect: 'sqlite' | 'postgres'): string {
  return dialect === 'sqlite'
    ? `OLD.filter_state IS NOT NEW.filter_state OR julianday(NEW.last_seen_at) - julianday(OLD.last_seen_at) > 90.0 / 86400`
    : `OLD.filter_state IS DISTINCT FROM NEW.filter_state OR NEW.last_seen_at::timestamptz - OLD.last_seen_at::timestamptz > interval '90 seconds'`;
}

const bump = (families: string) =>
  `UPDATE family_versions SET version = version + 1 WHERE parent_id IN (${families})`;

export const familyVersionsMigration: PortableMigration = (dialect) => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('family_versions')
      .addColumn('parent_id', 'text', (c) => c.primaryKey())
      .addColumn('version', dialect === 'sqlite' ? 'integer' : 'bigint', (c) =>
        c.notNull().defaultTo(0),
      )
      .execute();
    await sql`INSERT INTO family_versions (parent_id, version) SELECT id, 0 FROM parents`.execute(
      db,
    );
    await sql`INSERT INTO family_versions (parent_id, version) VALUES (${GLOBAL_VERSION_KEY}, 0)`.execute(
      db,
    );
    if (dialect === 'sqlite') await sqliteTriggers(db);
    else await postgresTriggers(db);
  },
  async down(db: MigrationDb) {
    for (const table of VERSIONED_TABLES) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(
            dialect === 'sqlite'
              ? `DROP TRIGGER IF EXISTS ${table}_family_version_${event}`
              : `DROP TRIGGER IF EXISTS ${table}_family_version_${event} ON ${table}`,
          )
          .execute(db);
      }
      if (dialect === 'postgres') {
        await sql.raw(`DROP FUNCTION IF EXISTS ${table}_family_version()`).execute(db);
      }
    }
    if (dialect === 'sqlite') {
      await sql.raw('DROP TRIGGER IF EXISTS parents_family_version_row').execute(db);
      await sql.raw('DROP TRIGGER IF EXISTS parents_family_version_gone').execute(db);
    } else {
      await sql.raw('DROP TRIGGER IF EXISTS parents_family_version_row ON parents').execute(db);
      await sql.raw('DROP FUNCTION IF EXISTS parents_family_version_row()').execute(db);
    }
    await db.schema.dropTable('family_versions').execute();
  },
});

async function sqliteTriggers(db: MigrationDb) {
  // a new family gets its version row; a deleted family loses it
  await sql
    .raw(`CREATE TRIGGER parents_family_version_row AFTER INSERT ON parents BEGIN
      INSERT INTO family_versions (parent_id, version) VALUES (NEW.id, 0) ON CONFLICT DO NOTHING;
    END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER parents_family_version_gone AFTER DELETE ON parents BEGIN
      DELETE FROM family_versions WHERE parent_id = OLD.id;
    END`)
    .execute(db);
  for (const table of VERSIONED_TABLES) {
    const when = table === 'device_presence' ? ` WHEN ${presenceChanged('sqlite')}` : '';
    await sql
      .raw(`CREATE TRIGGER ${table}_family_version_insert AFTER INSERT ON ${table} BEGIN
        ${bump(familiesOf(table, 'NEW'))};
      END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${table}_family_version_update AFTER UPDATE ON ${table}${when} BEGIN
        ${bump(`${familiesOf(table, 'NEW')} UNION ${familiesOf(table, 'OLD')}`)};
      END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${table}_family_version_delete AFTER DELETE ON ${table} BEGIN
        ${bump(familiesOf(table, 'OLD'))};
      END`)
      .execute(db);
  }
}

async function postgresTriggers(db: MigrationDb) {
  await sql
    .raw(`CREATE FUNCTION parents_family_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO family_versions (parent_id, version) VALUES (NEW.id, 0) ON CONFLICT DO NOTHING;
      ELSE
        DELETE FROM family_versions WHERE parent_id = OLD.id;
      END IF;
      RETURN NULL;
    END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER parents_family_version_row AFTER INSERT OR DELETE ON parents
      FOR EACH ROW EXECUTE FUNCTION parents_family_version_row()`)
    .execute(db);
  for (const table of VERSIONED_TABLES) {
    await sql
      .raw(`CREATE FUNCTION ${table}_family_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${bump(familiesOf(table, 'NEW'))};
        ELSIF TG_OP = 'UPDATE' THEN
          ${bump(`${familiesOf(table, 'NEW')} UNION ${familiesOf(table, 'OLD')}`)};
        ELSE
          ${bump(familiesOf(table, 'OLD'))};
        END IF;
        RETURN NULL;
      END $$`)
      .execute(db);
    for (const event of ['insert', 'update', 'delete']) {
      const when =
        table === 'device_presence' && event === 'update'
          ? ` WHEN (${presenceChanged('postgres')})`
          : '';
      await sql
        .raw(`CREATE CONSTRAINT TRIGGER ${table}_family_version_${event}
          AFTER ${event.toUpperCase()} ON ${table} DEFERRABLE INITIALLY DEFERRED
          FOR EACH ROW${when} EXECUTE FUNCTION ${table}_family_version()`)
        .execute(db);
    }
  }
}
