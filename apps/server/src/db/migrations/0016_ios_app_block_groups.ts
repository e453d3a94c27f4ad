import type { IosAppBlockGroup } from '@keyward/contract/ios';
import type { BlockRule } from '@keyward/contract/shared';
import type { CatalogueBlockGroup } from './0005_ios_block_groups.ts';
import type { MigrationDb, PortableMigration } from './types.ts';

// The iOS app names nine block groups of its own (BlockRules_v2's `disabledGroups`, contract
// `IOS_APP_BLOCK_GROUPS`). Two of them are groups of the catalogue already (GIFs, ads); the seven
// others are added here, with rules of their own, and every group the app names gets its id in
// IOS_APP_BLOCK_GROUP_IDS. The GIF group also gains the places GIFs are searched in Messages and
// Signal. The new groups join the catalogue the parent sees on every iOS device page; a device
// connected from now on starts with them on, a device connected before keeps the parent's choice.
// Frozen here: fix or extend it in a later migration. Every rule passes blockRuleProblem.
//
// Host rules name whole domains (`.example.com` or the exact host), so that `x.com` never also
// matches `fedex.com`.

const SEEDED_AT = '2026-11-26T00:00:00.000Z';

const app = (value: string): BlockRule => ({ case: 'bundleIdContains', value });
const hostEndsWith = (value: string): BlockRule => ({ case: 'hostnameEndsWith', value });
const hostEquals = (value: string): BlockRule => ({ case: 'hostnameEquals', value });
const hostContains = (value: string): BlockRule => ({ case: 'hostnameContains', value });
const targetContains = (value: string): BlockRule => ({ case: 'targetContains', value });
const both = (a: BlockRule, b: BlockRule): BlockRule => ({ case: 'both', a, b });
const unless = (rule: BlockRule, negatedBy: BlockRule[]): BlockRule => ({
  case: 'unless',
  rule,
  negatedBy,
});
const inBrowser: BlockRule = { case: 'flowTypeIs', value: 'browser' };
/** The domain itself and every host under it. */
const domain = (name: string): BlockRule[] => [hostEquals(name), hostEndsWith(`.${name}`)];

// the same numbering as 0005 (groups 1–9 there)
const groupId = (n: number) => `b10c9000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ruleId = (group: number, rule: number) =>
  `b10c9000-${String(group).padStart(4, '0')}-4000-8000-${String(rule).padStart(12, '0')}`;

const ADS_GROUP = 2;
const GIFS_GROUP = 8;
/** 0005 seeded 4 rules in the GIF group. */
const GIFS_SEEDED_RULES = 4;

/** Apple Maps fetches through its own app and through the geod daemon. */
const MAPS_APPS = ['com.apple.Maps', 'com.apple.geod'];
const inMaps = (rule: BlockRule) => MAPS_APPS.map((bundle) => both(app(bundle), rule));

interface AppGroup extends CatalogueBlockGroup {
  number: number;
  appName: IosAppBlockGroup;
}

export const IOS_APP_BLOCK_GROUPS_ADDED: AppGroup[] = [
  {
    number: 10,
    appName: 'appleMapsImages',
    id: groupId(10),
    name: 'Apple Maps images',
    description:
      'Photos of places and businesses in Apple Maps, which come from customers and review sites.',
    rules: [
      ...inMaps(targetContains('mzstatic.com')),
      ...inMaps(hostEndsWith('.yelpcdn.com')),
      ...inMaps(hostEndsWith('.tacdn.com')),
      ...inMaps(hostEndsWith('.4sqi.net')),
      ...inMaps(hostEndsWith('.bstatic.com')),
    ],
  },
  {
    number: 11,
    appName: 'aiFeatures',
    id: groupId(11),
    name: 'Apple AI features',
    description:
      'Cloud look-ups of what is in photos (Visual Look Up) and the ChatGPT extension of Siri and Apple Intelligence.',
    rules: [
      app('com.apple.mediaanalysisd'),
      app('com.apple.photoanalysisd'),
      both(app('com.apple.siri'), hostEndsWith('.openai.com')),
      both(app('com.apple.siri'), hostEndsWith('.chatgpt.com')),
      both(app('com.apple.siri'), hostEquals('chatgpt.com')),
    ],
  },
  {
    number: 12,
    appName: 'appStoreImages',
    id: groupId(12),
    name: 'App Store images',
    description:
      'App icons, screenshots and artwork in the App Store, also where it appears inside Messages.',
    rules: [
      both(app('com.apple.AppStore'), targetContains('mzstatic.com')),
      both(app('com.apple.MobileSMS'), targetContains('mzstatic.com')),
    ],
  },
  {
    number: 13,
    appName: 'spotlightSearches',
    id: groupId(13),
    name: 'Spotlight web searches',
    description:
      'Internet results in Spotlight search and Siri Suggestions; searching the device itself still works.',
    rules: [app('com.apple.Spotlight'), app('com.apple.parsec'), ...domain('smoot.apple.com')],
  },
  {
    number: 14,
    appName: 'whatsAppFeatures',
    id: groupId(14),
    name: 'WhatsApp media',
    description:
      'Photos, videos, voice notes, stickers and profile pictures in WhatsApp; text messages and calls still work.',
    rules: [
      hostEquals('mmg.whatsapp.net'),
      hostEquals('pps.whatsapp.net'),
      hostEquals('static.whatsapp.net'),
      both(hostEndsWith('.whatsapp.net'), hostContains('media')),
    ],
  },
  {
    number: 15,
    appName: 'appleWebsite',
    id: groupId(15),
    name: 'apple.com website',
    description:
      'Web pages of apple.com, also the ones opened from Settings and other system apps, from which the rest of the web is a link away. Apple Account sign-in still works.',
    rules: [
      both(inBrowser, hostEquals('apple.com')),
      // signing in to (or recovering) the Apple Account, and the Wi-Fi login check, are web pages too
      unless(both(inBrowser, hostEndsWith('.apple.com')), [
        hostEquals('appleid.apple.com'),
        hostEndsWith('.appleid.apple.com'),
        hostEquals('account.apple.com'),
        hostEquals('idmsa.apple.com'),
        hostEquals('iforgot.apple.com'),
        hostEquals('captive.apple.com'),
      ]),
      both(app('com.apple.Preferences'), hostEquals('www.apple.com')),
      both(app('com.apple.Preferences'), hostEquals('support.apple.com')),
    ],
  },
  {
    number: 16,
    appName: 'spotifyImages',
    id: groupId(16),
    name: 'Spotify images',
    description:
      'Album artwork, artist photos, playlist covers and video loops in Spotify; music still plays.',
    rules: [
      hostEquals('i.scdn.co'),
      hostEquals('mosaic.scdn.co'),
      hostEquals('i2o.scdn.co'),
      hostEquals('lineup-images.scdn.co'),
      hostEquals('seeded-session-images.scdn.co'),
      hostEquals('canvaz.scdn.co'),
      hostEquals('pickasso.spotifycdn.com'),
      both(hostEndsWith('.spotifycdn.com'), hostContains('image')),
    ],
  },
];

/** Rules added to the GIF group of 0005: GIF search in Messages (#images) and in Signal. */
export const IOS_GIF_RULES_ADDED: BlockRule[] = [
  app('HashtagImagesExtension'),
  ...domain('tenor.co'),
  both(app('org.whispersystems.signal'), hostEquals('contentproxy.signal.org')),
];

/** The catalogue group of each block group the iOS app names. */
export const IOS_APP_BLOCK_GROUP_IDS: Record<IosAppBlockGroup, string> = {
  gifs: groupId(GIFS_GROUP),
  ads: groupId(ADS_GROUP),
  ...(Object.fromEntries(
    IOS_APP_BLOCK_GROUPS_ADDED.map((group) => [group.appName, group.id]),
  ) as Record<Exclude<IosAppBlockGroup, 'gifs' | 'ads'>, string>),
};

const ruleRow = (id: string, groupId: string, rule: BlockRule) => ({
  id,
  device_id: null,
  group_id: groupId,
  vendor_id: null,
  rule: JSON.stringify(rule),
  comment: null,
  created_at: SEEDED_AT,
  updated_at: SEEDED_AT,
});

export const iosAppBlockGroupsMigration: PortableMigration = () => ({
  async up(db: MigrationDb) {
    for (const group of IOS_APP_BLOCK_GROUPS_ADDED) {
      await db
        .insertInto('ios_block_groups')
        .values({
          id: group.id,
          name: group.name,
          description: group.description,
          created_at: SEEDED_AT,
          updated_at: SEEDED_AT,
        })
        .execute();
      await db
        .insertInto('ios_block_rules')
        .values(
          group.rules.map((rule, index) =>
            ruleRow(ruleId(group.number, index + 1), group.id, rule),
          ),
        )
        .execute();
    }
    await db
      .insertInto('ios_block_rules')
      .values(
        IOS_GIF_RULES_ADDED.map((rule, index) =>
          ruleRow(ruleId(GIFS_GROUP, GIFS_SEEDED_RULES + index + 1), groupId(GIFS_GROUP), rule),
        ),
      )
      .execute();
  },
  async down(db: MigrationDb) {
    await db
      .deleteFrom('ios_block_rules')
      .where(
        'id',
        'in',
        IOS_GIF_RULES_ADDED.map((_, index) => ruleId(GIFS_GROUP, GIFS_SEEDED_RULES + index + 1)),
      )
      .execute();
    // the cascade removes the group rules and every device's choice of these groups
    await db
      .deleteFrom('ios_block_groups')
      .where(
        'id',
        'in',
        IOS_APP_BLOCK_GROUPS_ADDED.map((group) => group.id),
      )
      .execute();
  },
});
