import { type ColumnDefinitionBuilder, type CreateTableBuilder, sql } from 'kysely';
import {
  boolDefault,
  columnTypes,
  type MigrationDb,
  oneOf,
  type PortableMigration,
} from './types.ts';

const SUBSCRIPTION_STATUSES = [
  'pendingEmailVerification',
  'trialing',
  'trialExpiringSoon',
  'overdue',
  'paid',
  'unpaid',
  'pendingAccountDeletion',
  'complimentary',
];
const TRIGGERS = [
  'unlockRequestSubmitted',
  'suspendFilterRequestSubmitted',
  'adminChildSecurityEvent',
];
const RELEASE_CHANNELS = ['stable', 'beta', 'canary'];
const REQUEST_STATUSES = ['pending', 'accepted', 'rejected'];
const WEB_POLICIES = ['allowAll', 'blockAdult', 'blockAdultAnd', 'blockAllExcept', 'blockAll'];
const TOKEN_PURPOSES = ['magicLink', 'passwordReset', 'emailVerification'];
const CONFERENCE_SOURCES = ['workshop', 'booth'];

// Every table of server-behaviour §1, empty. Catalogue seeds come in later migrations.
export const initialMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  const falseByDefault = (c: ColumnDefinitionBuilder) =>
    c.notNull().defaultTo(boolDefault(dialect, false));
  const cascade =
    (target: string, nullable = false) =>
    (c: ColumnDefinitionBuilder) => {
      const column = c.references(`${target}.id`).onDelete('cascade');
      return nullable ? column : column.notNull();
    };

  type Table = CreateTableBuilder<string, string>;
  const create = (db: MigrationDb, name: string) =>
    db.schema.createTable(name).addColumn('id', t.id, (c) => c.primaryKey()) as Table;
  const withTimestamps = (table: Table) =>
    table.addColumn('created_at', t.ts, notNull).addColumn('updated_at', t.ts, notNull);
  const withCreatedAt = (table: Table) => table.addColumn('created_at', t.ts, notNull);
  const index = (db: MigrationDb, table: string, columns: string[]) =>
    db.schema
      .createIndex(`${table}_${columns.join('_')}_idx`)
      .on(table)
      .columns(columns)
      .execute();

  return {
    async up(db: MigrationDb) {
      // §1.2 parent side
      await withTimestamps(
        create(db, 'parents')
          .addColumn('email', t.text, (c) => c.notNull().unique())
          .addColumn('password_hash', t.text, notNull)
          .addColumn('subscription_id', t.text)
          .addColumn('subscription_status', t.text, (c) =>
            oneOf('subscription_status', SUBSCRIPTION_STATUSES)(c.notNull()),
          )
          .addColumn('subscription_status_expiration', t.ts, notNull)
          .addColumn('monthly_price', t.int, (c) => c.notNull().defaultTo(1000))
          .addColumn('gclid', t.text),
      ).execute();

      await create(db, 'dashboard_sessions')
        .addColumn('token_hash', t.text, (c) => c.notNull().unique())
        .addColumn('parent_id', t.id, cascade('parents'))
        .addColumn('created_at', t.ts, notNull)
        .addColumn('expires_at', t.ts, notNull)
        .addColumn('revoked_at', t.ts)
        .execute();
      await index(db, 'dashboard_sessions', ['parent_id']);

      await withCreatedAt(
        create(db, 'notification_methods')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('config', t.json, notNull)
          .addColumn('config_fingerprint', t.text, notNull)
          .addUniqueConstraint('notification_methods_parent_fingerprint_unique', [
            'parent_id',
            'config_fingerprint',
          ]),
      ).execute();

      await withCreatedAt(
        create(db, 'notifications')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('method_id', t.id, cascade('notification_methods'))
          .addColumn('trigger', t.text, (c) => oneOf('trigger', TRIGGERS)(c.notNull()))
          .addUniqueConstraint('notifications_parent_method_trigger_unique', [
            'parent_id',
            'method_id',
            'trigger',
          ]),
      ).execute();
      await index(db, 'notifications', ['method_id']);

      await create(db, 'announcements')
        .addColumn('parent_id', t.id, cascade('parents'))
        .addColumn('icon', t.text)
        .addColumn('html', t.text, notNull)
        .addColumn('learn_more_url', t.text)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('deleted_at', t.ts, notNull)
        .execute();
      await index(db, 'announcements', ['parent_id']);

      await withTimestamps(
        create(db, 'keychains')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('name', t.text, notNull)
          .addColumn('description', t.text)
          .addColumn('warning', t.text)
          .addColumn('is_public', t.bool, falseByDefault),
      ).execute();
      await index(db, 'keychains', ['parent_id']);

      await withTimestamps(
        create(db, 'keys')
          .addColumn('keychain_id', t.id, cascade('keychains'))
          .addColumn('key', t.json, notNull)
          .addColumn('comment', t.text),
      )
        .addColumn('deleted_at', t.ts)
        .execute();
      await index(db, 'keys', ['keychain_id']);

      await withTimestamps(
        create(db, 'children')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('name', t.text, notNull)
          .addColumn('keylogging_enabled', t.bool, falseByDefault)
          .addColumn('screenshots_enabled', t.bool, falseByDefault)
          .addColumn('screenshots_resolution', t.int, notNull)
          .addColumn('screenshots_frequency', t.int, notNull)
          .addColumn('show_suspension_activity', t.bool, falseByDefault)
          .addColumn('downtime', t.json),
      ).execute();
      await index(db, 'children', ['parent_id']);

      await withTimestamps(
        create(db, 'computers')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('custom_name', t.text)
          .addColumn('model_identifier', t.text, notNull)
          .addColumn('serial_number', t.text, (c) => c.notNull().unique())
          .addColumn('app_release_channel', t.text, (c) =>
            oneOf('app_release_channel', RELEASE_CHANNELS)(c.notNull().defaultTo('stable')),
          )
          .addColumn('filter_version', t.text)
          .addColumn('os_version', t.text),
      ).execute();
      await index(db, 'computers', ['parent_id']);

      // §1.3 child side
      await withTimestamps(
        create(db, 'computer_users')
          .addColumn('child_id', t.id, cascade('children'))
          .addColumn('computer_id', t.id, cascade('computers'))
          .addColumn('app_version', t.text, (c) => c.notNull().defaultTo('0.0.0'))
          .addColumn('username', t.text, notNull)
          .addColumn('full_username', t.text, notNull)
          .addColumn('numeric_id', t.bigint, notNull)
          .addColumn('is_admin', t.bool)
          .addUniqueConstraint('computer_users_computer_numeric_unique', [
            'computer_id',
            'numeric_id',
          ]),
      ).execute();
      await index(db, 'computer_users', ['child_id']);

      await withTimestamps(
        create(db, 'mac_app_tokens')
          .addColumn('token_hash', t.text, (c) => c.notNull().unique())
          .addColumn('child_id', t.id, cascade('children'))
          .addColumn('computer_user_id', t.id, cascade('computer_users')),
      )
        .addColumn('deleted_at', t.ts)
        .execute();
      await index(db, 'mac_app_tokens', ['computer_user_id']);
      await index(db, 'mac_app_tokens', ['child_id']);

      await withCreatedAt(
        create(db, 'child_keychains')
          .addColumn('child_id', t.id, cascade('children'))
          .addColumn('keychain_id', t.id, cascade('keychains'))
          .addColumn('schedule', t.json)
          .addUniqueConstraint('child_keychains_keychain_child_unique', [
            'keychain_id',
            'child_id',
          ]),
      ).execute();
      await index(db, 'child_keychains', ['child_id']);

      await withTimestamps(
        create(db, 'blocked_mac_apps')
          .addColumn('child_id', t.id, cascade('children'))
          .addColumn('identifier', t.text, notNull)
          .addColumn('schedule', t.json),
      ).execute();
      await index(db, 'blocked_mac_apps', ['child_id']);

      await withTimestamps(
        create(db, 'ios_devices')
          .addColumn('child_id', t.id, cascade('children'))
          .addColumn('vendor_id', t.text, notNull)
          .addColumn('device_type', t.text, notNull)
          .addColumn('app_version', t.text, notNull)
          .addColumn('ios_version', t.text, notNull)
          .addColumn('web_policy', t.text, (c) =>
            oneOf('web_policy', WEB_POLICIES)(c.notNull().defaultTo('blockAll')),
          ),
      ).execute();
      await index(db, 'ios_devices', ['child_id']);

      await withTimestamps(
        create(db, 'ios_app_tokens')
          .addColumn('token_hash', t.text, (c) => c.notNull().unique())
          .addColumn('device_id', t.id, cascade('ios_devices')),
      ).execute();
      await index(db, 'ios_app_tokens', ['device_id']);

      // §1.4 activity, requests, iOS rules
      await create(db, 'screenshots')
        .addColumn('computer_user_id', t.id, cascade('computer_users', true))
        .addColumn('ios_device_id', t.id, cascade('ios_devices', true))
        .addColumn('object_key', t.text, notNull)
        .addColumn('width', t.int, notNull)
        .addColumn('height', t.int, notNull)
        .addColumn('filter_suspended', t.bool, falseByDefault)
        .addColumn('flagged', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('deleted_at', t.ts)
        .addCheckConstraint(
          'screenshots_one_owner',
          sql`(computer_user_id is null) <> (ios_device_id is null)`,
        )
        .execute();
      await index(db, 'screenshots', ['computer_user_id', 'created_at']);
      await index(db, 'screenshots', ['ios_device_id']);

      await create(db, 'keystroke_lines')
        .addColumn('computer_user_id', t.id, cascade('computer_users'))
        .addColumn('app_name', t.text, notNull)
        .addColumn('line', t.text, notNull)
        .addColumn('filter_suspended', t.bool, falseByDefault)
        .addColumn('flagged', t.ts)
        .addColumn('created_at', t.ts, notNull)
        .addColumn('deleted_at', t.ts)
        .execute();
      await index(db, 'keystroke_lines', ['computer_user_id', 'created_at']);

      await withTimestamps(
        create(db, 'unlock_requests')
          .addColumn('computer_user_id', t.id, cascade('computer_users'))
          .addColumn('status', t.text, (c) => oneOf('status', REQUEST_STATUSES)(c.notNull()))
          .addColumn('app_bundle_id', t.text, notNull)
          .addColumn('url', t.text)
          .addColumn('hostname', t.text)
          .addColumn('ip_address', t.text)
          .addColumn('request_comment', t.text)
          .addColumn('response_comment', t.text),
      ).execute();
      await index(db, 'unlock_requests', ['computer_user_id']);

      await withTimestamps(
        create(db, 'mac_suspend_filter_requests')
          .addColumn('computer_user_id', t.id, cascade('computer_users'))
          .addColumn('status', t.text, (c) => oneOf('status', REQUEST_STATUSES)(c.notNull()))
          .addColumn('scope', t.json, notNull)
          .addColumn('duration', t.int, (c) => c.notNull().defaultTo(180))
          .addColumn('request_comment', t.text)
          .addColumn('response_comment', t.text)
          .addColumn('extra_monitoring', t.text),
      ).execute();
      await index(db, 'mac_suspend_filter_requests', ['computer_user_id']);

      await withTimestamps(
        create(db, 'ios_suspend_filter_requests')
          .addColumn('device_id', t.id, cascade('ios_devices'))
          .addColumn('status', t.text, (c) => oneOf('status', REQUEST_STATUSES)(c.notNull()))
          .addColumn('duration', t.int, notNull)
          .addColumn('request_comment', t.text)
          .addColumn('response_comment', t.text),
      ).execute();
      await index(db, 'ios_suspend_filter_requests', ['device_id']);

      await withTimestamps(
        create(db, 'ios_block_groups')
          .addColumn('name', t.text, notNull)
          .addColumn('description', t.text, notNull),
      ).execute();

      await withCreatedAt(
        create(db, 'ios_device_block_groups')
          .addColumn('device_id', t.id, cascade('ios_devices'))
          .addColumn('block_group_id', t.id, cascade('ios_block_groups'))
          .addUniqueConstraint('ios_device_block_groups_unique', ['device_id', 'block_group_id']),
      ).execute();

      await withTimestamps(
        create(db, 'ios_block_rules')
          .addColumn('device_id', t.id, cascade('ios_devices', true))
          .addColumn('group_id', t.id, cascade('ios_block_groups', true))
          .addColumn('vendor_id', t.text)
          .addColumn('rule', t.json, notNull)
          .addColumn('comment', t.text),
      ).execute();
      await index(db, 'ios_block_rules', ['device_id']);
      await index(db, 'ios_block_rules', ['group_id']);

      await withTimestamps(
        create(db, 'ios_web_policy_domains')
          .addColumn('device_id', t.id, cascade('ios_devices'))
          .addColumn('domain', t.text, notNull),
      ).execute();
      await index(db, 'ios_web_policy_domains', ['device_id']);

      // §1.5 system, catalogue, short-lived state
      await withCreatedAt(
        create(db, 'security_events')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('computer_user_id', t.id, cascade('computer_users', true))
          .addColumn('event', t.text, notNull)
          .addColumn('detail', t.text)
          .addColumn('ip_address', t.text),
      ).execute();
      await index(db, 'security_events', ['parent_id', 'created_at']);
      await index(db, 'security_events', ['computer_user_id']);

      await withCreatedAt(
        create(db, 'deleted_entities')
          .addColumn('type', t.text, notNull)
          .addColumn('reason', t.text, notNull)
          .addColumn('data', t.json, notNull),
      ).execute();

      await withCreatedAt(
        create(db, 'app_events')
          .addColumn('event_id', t.text, notNull)
          .addColumn('kind', t.text, notNull)
          .addColumn('context', t.text, notNull)
          .addColumn('computer_user_id', t.id, (c) =>
            c.references('computer_users.id').onDelete('set null'),
          )
          .addColumn('parent_id', t.id, (c) => c.references('parents.id').onDelete('set null'))
          .addColumn('detail', t.text),
      ).execute();

      await withCreatedAt(
        create(db, 'keychain_requests')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('search_query', t.text, notNull)
          .addColumn('description', t.text, notNull),
      ).execute();

      await withCreatedAt(
        create(db, 'stripe_events')
          .addColumn('stripe_event_id', t.text, (c) => c.notNull().unique())
          .addColumn('type', t.text, notNull)
          .addColumn('payload', t.json, notNull),
      ).execute();

      await withCreatedAt(
        create(db, 'conference_emails')
          .addColumn('email', t.text, notNull)
          .addColumn('source', t.text, (c) => oneOf('source', CONFERENCE_SOURCES)(c.notNull())),
      ).execute();

      await withCreatedAt(
        create(db, 'app_categories')
          .addColumn('name', t.text, notNull)
          .addColumn('slug', t.text, (c) => c.notNull().unique()),
      ).execute();

      await withTimestamps(
        create(db, 'identified_apps')
          .addColumn('category_id', t.id, (c) =>
            c.references('app_categories.id').onDelete('set null'),
          )
          .addColumn('name', t.text, notNull)
          .addColumn('slug', t.text, (c) => c.notNull().unique())
          .addColumn('launchable', t.bool, falseByDefault)
          .addColumn('description', t.text),
      ).execute();

      await withCreatedAt(
        create(db, 'app_bundle_ids')
          .addColumn('identified_app_id', t.id, cascade('identified_apps'))
          .addColumn('bundle_id', t.text, (c) => c.notNull().unique()),
      ).execute();

      await withTimestamps(
        create(db, 'unidentified_apps')
          .addColumn('bundle_id', t.text, (c) => c.notNull().unique())
          .addColumn('bundle_name', t.text)
          .addColumn('localized_name', t.text)
          .addColumn('launchable', t.bool)
          .addColumn('count', t.int, (c) => c.notNull().defaultTo(0)),
      ).execute();

      await withCreatedAt(
        create(db, 'browsers').addColumn('match', t.text, (c) => c.notNull().unique()),
      ).execute();

      await withCreatedAt(
        create(db, 'releases')
          .addColumn('semver', t.text, notNull)
          .addColumn('channel', t.text, (c) => oneOf('channel', RELEASE_CHANNELS)(c.notNull()))
          .addColumn('pace', t.int, notNull)
          .addColumn('release_date', t.ts, notNull)
          .addColumn('signature', t.text)
          .addColumn('length', t.int)
          .addUniqueConstraint('releases_semver_unique', ['semver']),
      ).execute();

      await withCreatedAt(
        create(db, 'one_time_tokens')
          .addColumn('purpose', t.text, (c) => oneOf('purpose', TOKEN_PURPOSES)(c.notNull()))
          .addColumn('token_hash', t.text, (c) => c.notNull().unique())
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('expires_at', t.ts, notNull)
          .addColumn('used_at', t.ts),
      ).execute();
      await index(db, 'one_time_tokens', ['parent_id']);

      await withCreatedAt(
        create(db, 'connection_codes')
          .addColumn('code_hash', t.text, (c) => c.notNull().unique())
          .addColumn('child_id', t.id, cascade('children'))
          .addColumn('expires_at', t.ts, notNull),
      ).execute();
      await index(db, 'connection_codes', ['child_id']);

      await withCreatedAt(
        create(db, 'pending_notification_methods')
          .addColumn('parent_id', t.id, cascade('parents'))
          .addColumn('config', t.json, notNull)
          .addColumn('code_hash', t.text, notNull)
          .addColumn('expires_at', t.ts, notNull),
      ).execute();
      await index(db, 'pending_notification_methods', ['parent_id']);

      await db.schema
        .createTable('rate_limit_counters')
        .addColumn('bucket', t.text, notNull)
        .addColumn('window_start', t.ts, notNull)
        .addColumn('count', t.int, notNull)
        .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_start'])
        .execute();

      await db.schema
        .createTable('device_presence')
        .addColumn('computer_user_id', t.id, (c) =>
          c.primaryKey().references('computer_users.id').onDelete('cascade'),
        )
        .addColumn('last_seen_at', t.ts, notNull)
        .addColumn('filter_state', t.json)
        .addColumn('connection_id', t.text)
        .addColumn('instance_id', t.text)
        .execute();

      await db.schema
        .createTable('job_runs')
        .addColumn('job', t.text, notNull)
        .addColumn('run_key', t.text, notNull)
        .addColumn('started_at', t.ts, notNull)
        .addColumn('finished_at', t.ts)
        .addPrimaryKeyConstraint('job_runs_pk', ['job', 'run_key'])
        .execute();
    },
  };
};
