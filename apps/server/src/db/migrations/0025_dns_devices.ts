import type { ColumnDefinitionBuilder } from 'kysely';
import type { CatalogueKeychain } from './0003_public_keychains.ts';
import { CATALOGUE_PARENT_ID } from './0003_public_keychains.ts';
import { columnTypes, type MigrationDb, type PortableMigration } from './types.ts';

// Issue 33, the rest of Keyward DNS:
// - dns_allowed_names: the names a DNS device resolved, kept like dns_blocked_names (24 hours, at
//   most 200 per device), for its page's "top allowed names";
// - dns_query_hours: per device and hour, how many queries it made and how many were blocked
//   (kept 48 hours), for "today's queries" in the family's time zone;
// - computers.dns_removal_password: the removal password of a DNS device's Apple profile, when the
//   parent sets one (it has to be written into the profile, so it is stored as given);
// - the public keychains Android essentials, Apple essentials and Windows essentials: what each
//   system needs to stay online, sync, update and notify under deny by default. Sources are cited
//   per key (the research is shared/design/dns-devices.md §1–3 and §8). The data is frozen here.

const anyApp = { type: 'unrestricted' } as const;
const tree = (domain: string, comment: string) => ({
  key: { type: 'anySubdomain' as const, domain, scope: anyApp },
  comment,
});
const host = (domain: string, comment: string) => ({
  key: { type: 'domain' as const, domain, scope: anyApp },
  comment,
});

const keychainId = (n: number) => `ca7a1090-0000-4000-8000-${String(n).padStart(12, '0')}`;
const keyId = (keychain: number, key: number) =>
  `ca7a1090-${String(keychain).padStart(4, '0')}-4000-8000-${String(key).padStart(12, '0')}`;

/** Google's Android Enterprise network list: https://support.google.com/work/android/answer/10513641 */
const ANDROID = 'Android Enterprise network requirements';
/** Apple's list: https://support.apple.com/en-us/101555 */
const APPLE = 'Apple: use Apple products on enterprise networks (101555)';
/** Microsoft: https://learn.microsoft.com/windows/privacy/manage-windows-11-endpoints */
const WINDOWS = 'Microsoft: Windows 11 connection endpoints';

export const ESSENTIALS_KEYCHAINS: (CatalogueKeychain & { n: number; forKind: string })[] = [
  {
    n: 10,
    forKind: 'android',
    id: keychainId(10),
    name: 'Android essentials',
    description:
      'What an Android phone or tablet needs to stay online, sign in to its Google account, get notifications, update its apps and system, and check its time. Without it, a phone filtered by Keyward DNS shows "no internet", and apps cannot sync or notify. It opens Google services the phone uses in the background, not YouTube or other Google sites; Google search opens, because Android checks its connection at www.google.com.',
    warning:
      'Android checks its connection at www.google.com, so this keychain also opens Google search.',
    keys: [
      host('www.google.com', `Android's connection check (HTTPS); ${ANDROID}`),
      host('play.google.com', `Google Play; ${ANDROID}`),
      tree('android.com', `Android services; ${ANDROID}`),
      host('android.clients.google.com', `Device registration and check-in; ${ANDROID}`),
      host('accounts.google.com', `Signing in to the Google account; ${ANDROID}`),
      host('m.google.com', `Device management; ${ANDROID}`),
      host('dl.google.com', `Downloads and updates; ${ANDROID}`),
      host('dl-ssl.google.com', `Downloads and updates; ${ANDROID}`),
      host('pki.google.com', `Certificate checks; ${ANDROID}`),
      ...[1, 2, 3, 4, 5, 6].map((n) =>
        host(`clients${n}.google.com`, `Google services in the background; ${ANDROID}`),
      ),
      // Google lists *.googleapis.com and *.googleusercontent.com; a key cannot open every
      // subdomain of such a shared host (validateSharedKey), so the ones a phone needs, by name
      host('fcm.googleapis.com', `Notifications (FCM); ${ANDROID}`),
      host('fcm-xmpp.googleapis.com', `Notifications (FCM); ${ANDROID}`),
      host('firebaseinstallations.googleapis.com', `Notifications (FCM registration); ${ANDROID}`),
      host('android.googleapis.com', `Device check-in; ${ANDROID}`),
      host('play.googleapis.com', `Google Play services; ${ANDROID}`),
      host('www.googleapis.com', `Google APIs used by Play services; ${ANDROID}`),
      host('play-lh.googleusercontent.com', `App icons on Google Play; ${ANDROID}`),
      tree('gstatic.com', `Google's static files and connection checks; ${ANDROID}`),
      tree('ggpht.com', `App icons and images on Google Play; ${ANDROID}`),
      tree('gvt1.com', `App and system updates; ${ANDROID}`),
      tree('gvt2.com', `App and system updates; ${ANDROID}`),
      tree('gvt3.com', `App and system updates; ${ANDROID}`),
    ],
  },
  {
    n: 11,
    forKind: 'apple',
    id: keychainId(11),
    name: 'Apple essentials',
    description:
      'What an iPhone, iPad or Mac needs to stay online, get notifications, activate, update and check its time and certificates. Without it, a device filtered by Keyward DNS cannot get notifications or updates. It opens Apple’s background services, not the App Store, iCloud or other Apple sites.',
    keys: [
      tree('push.apple.com', `Notifications (APNs); ${APPLE}`),
      host('captive.apple.com', `Connection check; ${APPLE}`),
      host('albert.apple.com', `Activation; ${APPLE}`),
      host('gs.apple.com', `Software updates and restore; ${APPLE}`),
      host('humb.apple.com', `Activation; ${APPLE}`),
      host('static.ips.apple.com', `Activation; ${APPLE}`),
      host('tbsc.apple.com', `Activation; ${APPLE}`),
      host('sq-device.apple.com', `eSIM activation; ${APPLE}`),
      host('mesu.apple.com', `Software update catalogue; ${APPLE}`),
      host('updates.cdn-apple.com', `Software updates; ${APPLE}`),
      host('ocsp.apple.com', `Certificate checks; ${APPLE}`),
      host('crl.apple.com', `Certificate checks; ${APPLE}`),
      host('valid.apple.com', `Certificate checks; ${APPLE}`),
      host('time.apple.com', `Time; ${APPLE}`),
    ],
  },
  {
    n: 12,
    forKind: 'windows',
    id: keychainId(12),
    name: 'Windows essentials',
    description:
      'What a Windows computer needs to stay online, get Windows updates and notifications, activate, and check its time and certificates. Without it, a computer filtered by Keyward DNS shows "no internet" and stops updating. It opens Windows’ background services, not Microsoft’s websites.',
    keys: [
      host('www.msftconnecttest.com', `Connection check (NCSI); ${WINDOWS}`),
      host('ipv6.msftconnecttest.com', `Connection check (NCSI); ${WINDOWS}`),
      host('dns.msftncsi.com', `Connection check (NCSI); ${WINDOWS}`),
      host('time.windows.com', `Time; ${WINDOWS}`),
      tree('windowsupdate.com', `Windows Update and certificate lists; ${WINDOWS}`),
      tree('update.microsoft.com', `Windows Update; ${WINDOWS}`),
      tree('delivery.mp.microsoft.com', `Windows Update downloads; ${WINDOWS}`),
      tree('notify.windows.com', `Notifications (WNS); ${WINDOWS}`),
      host('login.live.com', `Signing in with a Microsoft account; ${WINDOWS}`),
      tree('sls.microsoft.com', `Activation; ${WINDOWS}`),
      host('crl.microsoft.com', `Certificate checks; ${WINDOWS}`),
      host('oneocsp.microsoft.com', `Certificate checks; ${WINDOWS}`),
    ],
  },
];

const SEEDED_AT = '2026-12-01T00:00:00.000Z';

export const dnsDevicesMigration: PortableMigration = (dialect) => {
  const t = columnTypes(dialect);
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  return {
    async up(db: MigrationDb) {
      await db.schema
        .createTable('dns_allowed_names')
        .addColumn('computer_user_id', t.id, (c) =>
          c.references('computer_users.id').onDelete('cascade').notNull(),
        )
        .addColumn('name', t.text, notNull)
        .addColumn('count', t.int, notNull)
        .addColumn('last_at', t.ts, notNull)
        .addPrimaryKeyConstraint('dns_allowed_names_pk', ['computer_user_id', 'name'])
        .execute();
      await db.schema
        .createIndex('dns_allowed_names_last_at_idx')
        .on('dns_allowed_names')
        .columns(['computer_user_id', 'last_at'])
        .execute();
      await db.schema
        .createTable('dns_query_hours')
        .addColumn('computer_user_id', t.id, (c) =>
          c.references('computer_users.id').onDelete('cascade').notNull(),
        )
        .addColumn('hour', t.ts, notNull)
        .addColumn('queries', t.int, notNull)
        .addColumn('blocked', t.int, notNull)
        .addPrimaryKeyConstraint('dns_query_hours_pk', ['computer_user_id', 'hour'])
        .execute();
      await db.schema.alterTable('computers').addColumn('dns_removal_password', t.text).execute();

      for (const keychain of ESSENTIALS_KEYCHAINS) {
        await db
          .insertInto('keychains')
          .values({
            id: keychain.id,
            parent_id: CATALOGUE_PARENT_ID,
            name: keychain.name,
            description: keychain.description,
            warning: keychain.warning ?? null,
            is_public: dialect === 'sqlite' ? 1 : true,
            created_at: SEEDED_AT,
            updated_at: SEEDED_AT,
          })
          .execute();
        await db
          .insertInto('keys')
          .values(
            keychain.keys.map((entry, index) => ({
              id: keyId(keychain.n, index + 1),
              keychain_id: keychain.id,
              key: JSON.stringify(entry.key),
              comment: entry.comment ?? null,
              created_at: SEEDED_AT,
              updated_at: SEEDED_AT,
              deleted_at: null,
            })),
          )
          .execute();
      }
    },
    async down(db: MigrationDb) {
      await db
        .deleteFrom('keychains')
        .where(
          'id',
          'in',
          ESSENTIALS_KEYCHAINS.map((k) => k.id),
        )
        .execute();
      await db.schema.alterTable('computers').dropColumn('dns_removal_password').execute();
      await db.schema.dropTable('dns_query_hours').execute();
      await db.schema.dropTable('dns_allowed_names').execute();
    },
  };
};
