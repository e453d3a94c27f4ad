import type { BlockRule } from '@keyward/contract/shared';
import type { MigrationDb, PortableMigration } from './types.ts';

// The iOS block-group catalogue (server-behaviour §1.4, §5): groups of block rules a parent turns on
// or off per iOS device; every group is on for a new device. Frozen here: fix or extend it in a
// later migration. Every rule passes blockRuleProblem (test/ios-catalogue.test.ts).

const SEEDED_AT = '2025-01-01T00:00:00.000Z';

const app = (value: string): BlockRule => ({ case: 'bundleIdContains', value });
const hostEndsWith = (value: string): BlockRule => ({ case: 'hostnameEndsWith', value });
const hostEquals = (value: string): BlockRule => ({ case: 'hostnameEquals', value });
const urlContains = (value: string): BlockRule => ({ case: 'urlContains', value });
const both = (a: BlockRule, b: BlockRule): BlockRule => ({ case: 'both', a, b });
const unless = (rule: BlockRule, negatedBy: BlockRule[]): BlockRule => ({
  case: 'unless',
  rule,
  negatedBy,
});

export interface CatalogueBlockGroup {
  id: string;
  name: string;
  description: string;
  rules: BlockRule[];
}

const groupId = (n: number) => `b10c9000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ruleId = (group: number, rule: number) =>
  `b10c9000-${String(group).padStart(4, '0')}-4000-8000-${String(rule).padStart(12, '0')}`;

export const IOS_BLOCK_GROUPS: CatalogueBlockGroup[] = [
  {
    id: groupId(1),
    name: 'App Store purchases',
    description: 'Buying and downloading apps, in-app purchases and subscriptions.',
    rules: [
      app('com.apple.AppStore'),
      hostEndsWith('buy.itunes.apple.com'),
      hostEquals('p25-buy.itunes.apple.com'),
      hostEndsWith('apps.apple.com'),
    ],
  },
  {
    id: groupId(2),
    name: 'Ads and trackers',
    description: 'Advertising networks and trackers inside apps and websites.',
    rules: [
      hostEndsWith('doubleclick.net'),
      hostEndsWith('googlesyndication.com'),
      hostEndsWith('googleadservices.com'),
      hostEndsWith('app-measurement.com'),
      hostEndsWith('adcolony.com'),
      hostEndsWith('applovin.com'),
      hostEndsWith('unityads.unity3d.com'),
      hostEndsWith('ads.tiktok.com'),
      hostEndsWith('an.facebook.com'),
    ],
  },
  {
    id: groupId(3),
    name: 'AI chat apps',
    description: 'Chatbots such as ChatGPT, Gemini, Claude, Copilot and Character.AI.',
    rules: [
      app('com.openai.chat'),
      hostEndsWith('chatgpt.com'),
      hostEndsWith('chat.openai.com'),
      hostEndsWith('gemini.google.com'),
      hostEndsWith('claude.ai'),
      hostEndsWith('copilot.microsoft.com'),
      hostEndsWith('character.ai'),
      app('ai.character.app'),
      hostEndsWith('perplexity.ai'),
    ],
  },
  {
    id: groupId(4),
    name: 'Games',
    description: 'Popular online games and game stores.',
    rules: [
      app('com.roblox'),
      hostEndsWith('roblox.com'),
      hostEndsWith('rbxcdn.com'),
      app('com.epicgames'),
      hostEndsWith('fortnite.com'),
      app('com.mojang.minecraftpe'),
      app('com.supercell'),
      hostEndsWith('supercell.com'),
    ],
  },
  {
    id: groupId(5),
    name: 'Social media',
    description: 'TikTok, Instagram, Snapchat, Facebook, X and Reddit.',
    rules: [
      app('com.zhiliaoapp.musically'),
      hostEndsWith('tiktok.com'),
      hostEndsWith('tiktokcdn.com'),
      app('com.burbn.instagram'),
      hostEndsWith('instagram.com'),
      app('com.toyopagroup.picaboo'),
      hostEndsWith('snapchat.com'),
      app('com.facebook.Facebook'),
      hostEndsWith('facebook.com'),
      app('com.atebits.Tweetie2'),
      hostEndsWith('x.com'),
      hostEndsWith('twitter.com'),
      app('com.reddit.Reddit'),
      hostEndsWith('reddit.com'),
    ],
  },
  {
    id: groupId(6),
    name: 'Music and video streaming',
    description: 'YouTube, Netflix, Twitch, Spotify and other streaming services.',
    rules: [
      app('com.google.ios.youtube'),
      hostEndsWith('youtube.com'),
      hostEndsWith('googlevideo.com'),
      app('com.netflix.Netflix'),
      hostEndsWith('netflix.com'),
      hostEndsWith('nflxvideo.net'),
      app('tv.twitch'),
      hostEndsWith('twitch.tv'),
      app('com.spotify.client'),
      hostEndsWith('spotify.com'),
    ],
  },
  {
    id: groupId(7),
    name: 'Messaging apps',
    description: 'WhatsApp, Telegram, Discord, Messenger and Signal.',
    rules: [
      app('net.whatsapp.WhatsApp'),
      hostEndsWith('whatsapp.net'),
      app('ph.telegra.Telegraph'),
      hostEndsWith('telegram.org'),
      app('com.hammerandchisel.discord'),
      hostEndsWith('discord.com'),
      hostEndsWith('discord.gg'),
      app('com.facebook.Messenger'),
      app('org.whispersystems.signal'),
    ],
  },
  {
    id: groupId(8),
    name: 'GIF and sticker search',
    description: 'GIF and sticker search in keyboards and messages.',
    rules: [
      hostEndsWith('giphy.com'),
      hostEndsWith('tenor.com'),
      hostEndsWith('tenor.googleapis.com'),
      both(app('com.apple.MobileSMS'), urlContains('/gifs')),
    ],
  },
  {
    id: groupId(9),
    name: 'Web content in system apps',
    description:
      'Websites opened inside apps that are not browsers (previews, in-app browsers, Spotlight), except Apple services.',
    rules: [
      unless(both(app('com.apple'), { case: 'flowTypeIs', value: 'browser' }), [
        app('com.apple.mobilesafari'),
        hostEndsWith('apple.com'),
        hostEndsWith('icloud.com'),
      ]),
    ],
  },
];

export const iosBlockGroupsMigration: PortableMigration = () => ({
  async up(db: MigrationDb) {
    for (const [groupIndex, group] of IOS_BLOCK_GROUPS.entries()) {
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
          group.rules.map((rule, ruleIndex) => ({
            id: ruleId(groupIndex + 1, ruleIndex + 1),
            device_id: null,
            group_id: group.id,
            vendor_id: null,
            rule: JSON.stringify(rule),
            comment: null,
            created_at: SEEDED_AT,
            updated_at: SEEDED_AT,
          })),
        )
        .execute();
    }
  },
  async down(db: MigrationDb) {
    // the cascade removes the group rules and every device's choice of these groups
    await db
      .deleteFrom('ios_block_groups')
      .where(
        'id',
        'in',
        IOS_BLOCK_GROUPS.map((g) => g.id),
      )
      .execute();
  },
});
