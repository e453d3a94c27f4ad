import type { SharedKey } from '@keyward/contract/shared';
import type { MigrationDb, PortableMigration } from './types.ts';

// The public keychain catalogue (server-behaviour §1.2): keychains every parent can read and assign,
// owned by a catalogue parent that can never log in. Data is frozen here; fix or extend it in a
// later migration. Every key passes validateSharedKey (test/keychains-catalogue.test.ts).

export const CATALOGUE_PARENT_ID = 'ca7a1090-0000-4000-8000-000000000000';
export const CATALOGUE_PARENT_EMAIL = 'catalogue@keyward.invalid';
/** Not an argon2 hash, so no password ever verifies against it. */
const NO_PASSWORD = 'disabled';
const SEEDED_AT = '2025-01-01T00:00:00.000Z';
const NEVER = '9999-12-31T00:00:00.000Z';

interface CatalogueKey {
  key: SharedKey;
  comment?: string;
}

export interface CatalogueKeychain {
  id: string;
  name: string;
  description: string;
  warning?: string;
  keys: CatalogueKey[];
}

const browsers = { type: 'webBrowsers' } as const;
const anyApp = { type: 'unrestricted' } as const;
const site = (domain: string, comment?: string): CatalogueKey => ({
  key: { type: 'anySubdomain', domain, scope: browsers },
  ...(comment ? { comment } : {}),
});
const exact = (domain: string, comment?: string): CatalogueKey => ({
  key: { type: 'domain', domain, scope: browsers },
  ...(comment ? { comment } : {}),
});

const keychainId = (n: number) => `ca7a1090-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const PUBLIC_KEYCHAINS: CatalogueKeychain[] = [
  {
    id: keychainId(1),
    name: 'Google Workspace for Education',
    description:
      'Google Classroom, Docs, Drive, Meet and sign-in, for schools that use Google. Opens these Google sites only, not Google search or YouTube.',
    keys: [
      exact('classroom.google.com', 'Google Classroom'),
      exact('docs.google.com', 'Docs, Sheets, Slides and Forms'),
      exact('drive.google.com', 'Google Drive'),
      exact('meet.google.com', 'Google Meet'),
      exact('accounts.google.com', 'Signing in'),
      exact('calendar.google.com', 'Google Calendar'),
      exact('sites.google.com', 'Google Sites'),
      site('gstatic.com', 'Images and scripts used by Google apps'),
      site('forms.gle', 'Short links to Google Forms'),
    ],
  },
  {
    id: keychainId(2),
    name: 'Zoom video calls',
    description: 'The Zoom app and zoom.us in the browser, for online classes and family calls.',
    keys: [
      { key: { type: 'anySubdomain', domain: 'zoom.us', scope: anyApp }, comment: 'Zoom meetings' },
      { key: { type: 'anySubdomain', domain: 'zoom.com', scope: anyApp } },
      {
        key: { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
        comment: 'The Zoom app for Mac',
      },
    ],
  },
  {
    id: keychainId(3),
    name: 'Khan Academy',
    description: 'Free lessons and practice in maths, science, reading and more.',
    keys: [
      site('khanacademy.org'),
      site('kastatic.org', 'Khan Academy images and videos'),
      site('kasandbox.org', 'Khan Academy exercises'),
    ],
  },
  {
    id: keychainId(4),
    name: 'Maths practice',
    description: 'IXL, Prodigy, Maths is Fun, Desmos and GeoGebra.',
    keys: [
      site('ixl.com'),
      site('prodigygame.com'),
      site('mathsisfun.com'),
      site('desmos.com', 'Graphing calculator'),
      site('geogebra.org'),
    ],
  },
  {
    id: keychainId(5),
    name: 'Wikipedia & encyclopedias',
    description: 'Wikipedia in every language, Wiktionary, Wikimedia images and Britannica.',
    keys: [
      site('wikipedia.org'),
      site('wikimedia.org', 'Images on Wikipedia'),
      site('wiktionary.org'),
      site('britannica.com'),
    ],
  },
  {
    id: keychainId(6),
    name: 'Bible study',
    description: 'Bible Gateway, YouVersion (bible.com), the ESV and Blue Letter Bible.',
    keys: [
      site('biblegateway.com'),
      site('bible.com', 'YouVersion'),
      site('esv.org'),
      site('blueletterbible.org'),
    ],
  },
  {
    id: keychainId(7),
    name: 'Typing practice',
    description: 'Typing lessons and games.',
    keys: [site('typing.com'), site('keybr.com'), site('typingclub.com')],
  },
  {
    id: keychainId(8),
    name: 'Coding for kids',
    description: 'Scratch, Code.org and Replit for learning to program.',
    keys: [site('scratch.mit.edu', 'Scratch'), site('code.org'), site('replit.com')],
  },
  {
    id: keychainId(9),
    name: 'Microsoft 365 for school',
    description: 'Office on the web, Outlook, Teams, OneDrive and Microsoft sign-in.',
    warning:
      'This keychain opens every organisation’s SharePoint and OneDrive sites, not only your school’s.',
    keys: [
      site('office.com'),
      site('microsoft365.com'),
      site('office.net', 'Office scripts and images'),
      exact('login.microsoftonline.com', 'Signing in'),
      exact('login.live.com', 'Signing in with a personal account'),
      exact('onedrive.live.com', 'OneDrive'),
      exact('outlook.live.com', 'Outlook'),
      exact('teams.microsoft.com', 'Microsoft Teams'),
      site('sharepoint.com', 'SharePoint and OneDrive for school'),
    ],
  },
];

const keyId = (keychain: number, key: number) =>
  `ca7a1090-${String(keychain).padStart(4, '0')}-4000-8000-${String(key).padStart(12, '0')}`;

export const publicKeychainsMigration: PortableMigration = (dialect) => ({
  async up(db: MigrationDb) {
    await db
      .insertInto('parents')
      .values({
        id: CATALOGUE_PARENT_ID,
        email: CATALOGUE_PARENT_EMAIL,
        password_hash: NO_PASSWORD,
        subscription_id: null,
        subscription_status: 'complimentary',
        subscription_status_expiration: NEVER,
        monthly_price: 0,
        gclid: null,
        created_at: SEEDED_AT,
        updated_at: SEEDED_AT,
      })
      .execute();

    for (const [index, keychain] of PUBLIC_KEYCHAINS.entries()) {
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
          keychain.keys.map((entry, keyIndex) => ({
            id: keyId(index + 1, keyIndex + 1),
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
    // the cascade removes the keychains, their keys and every assignment
    await db.deleteFrom('parents').where('id', '=', CATALOGUE_PARENT_ID).execute();
  },
});
