import type { MigrationDb, PortableMigration } from './types.ts';

// The catalogue of known Mac apps (server-behaviour §1.5, GetIdentifiedApps) and the browser
// matchers CheckIn_v2 sends to the Mac. Data is frozen here: ids are fixed, so NEVER renumber a row;
// fix or extend the catalogue in a later migration. Only apps that exist on macOS, with the bundle
// ids their macOS builds really carry (several when a maker ships editions, betas or a rewrite).

const SEEDED_AT = '2025-01-01T00:00:00.000Z';

const pad = (n: number) => String(n).padStart(12, '0');
export const categoryId = (n: number) => `a9930000-0000-4000-8000-${pad(n)}`;
export const appId = (n: number) => `a9910000-0000-4000-8000-${pad(n)}`;
/** The i-th bundle id (from 1) of app n. */
export const bundleIdRowId = (n: number, i: number) =>
  `a9920000-0000-4000-8000-${pad(n * 100 + i)}`;
const browserRowId = (n: number) => `a9940000-0000-4000-8000-${pad(n)}`;

export const APP_CATEGORIES = {
  browsers: { id: categoryId(1), name: 'Web browsers' },
  messaging: { id: categoryId(2), name: 'Messaging and calls' },
  games: { id: categoryId(3), name: 'Games' },
  video: { id: categoryId(4), name: 'Video and music' },
  school: { id: categoryId(5), name: 'School and productivity' },
  creative: { id: categoryId(6), name: 'Creative' },
  utilities: { id: categoryId(7), name: 'System and utilities' },
  ai: { id: categoryId(8), name: 'AI assistants' },
} as const;
type CategorySlug = keyof typeof APP_CATEGORIES;

/** [number (id), name, slug, category, bundle ids] — every app here is launchable. */
type AppRow = readonly [number, string, string, CategorySlug, readonly string[]];

export const CATALOGUE_APPS: readonly AppRow[] = [
  // browsers
  [1, 'Safari', 'safari', 'browsers', ['com.apple.Safari']],
  [
    2,
    'Google Chrome',
    'google-chrome',
    'browsers',
    [
      'com.google.Chrome',
      'com.google.Chrome.beta',
      'com.google.Chrome.dev',
      'com.google.Chrome.canary',
    ],
  ],
  [
    3,
    'Firefox',
    'firefox',
    'browsers',
    ['org.mozilla.firefox', 'org.mozilla.firefoxdeveloperedition', 'org.mozilla.nightly'],
  ],
  [
    4,
    'Microsoft Edge',
    'microsoft-edge',
    'browsers',
    [
      'com.microsoft.edgemac',
      'com.microsoft.edgemac.Beta',
      'com.microsoft.edgemac.Dev',
      'com.microsoft.edgemac.Canary',
    ],
  ],
  [5, 'Brave Browser', 'brave-browser', 'browsers', ['com.brave.Browser']],
  [6, 'Arc', 'arc', 'browsers', ['company.thebrowser.Browser']],
  [7, 'Opera', 'opera', 'browsers', ['com.operasoftware.Opera']],
  [8, 'Opera GX', 'opera-gx', 'browsers', ['com.operasoftware.OperaGX']],
  [9, 'Vivaldi', 'vivaldi', 'browsers', ['com.vivaldi.Vivaldi']],
  [10, 'Tor Browser', 'tor-browser', 'browsers', ['org.torproject.torbrowser']],
  [11, 'Chromium', 'chromium', 'browsers', ['org.chromium.Chromium']],
  [12, 'DuckDuckGo', 'duckduckgo', 'browsers', ['com.duckduckgo.macos.browser']],
  [
    13,
    'Safari Technology Preview',
    'safari-technology-preview',
    'browsers',
    ['com.apple.SafariTechnologyPreview'],
  ],

  // messaging and calls
  [20, 'Messages', 'messages', 'messaging', ['com.apple.MobileSMS']],
  [21, 'FaceTime', 'facetime', 'messaging', ['com.apple.FaceTime']],
  [22, 'WhatsApp', 'whatsapp', 'messaging', ['net.whatsapp.WhatsApp', 'desktop.WhatsApp']],
  [23, 'Signal', 'signal', 'messaging', ['org.whispersystems.signal-desktop']],
  [24, 'Telegram', 'telegram', 'messaging', ['ru.keepcoder.Telegram', 'org.telegram.desktop']],
  [25, 'Discord', 'discord', 'messaging', ['com.hnc.Discord']],
  [26, 'Slack', 'slack', 'messaging', ['com.tinyspeck.slackmacgap']],
  [27, 'Zoom', 'zoom', 'messaging', ['us.zoom.xos']],
  [
    28,
    'Microsoft Teams',
    'microsoft-teams',
    'messaging',
    ['com.microsoft.teams2', 'com.microsoft.teams'],
  ],
  [29, 'Skype', 'skype', 'messaging', ['com.skype.skype']],
  [30, 'Mail', 'mail', 'messaging', ['com.apple.mail']],
  [31, 'Microsoft Outlook', 'microsoft-outlook', 'messaging', ['com.microsoft.Outlook']],
  [32, 'Messenger', 'messenger', 'messaging', ['com.facebook.archon']],

  // games
  [40, 'Steam', 'steam', 'games', ['com.valvesoftware.steam']],
  [41, 'Minecraft', 'minecraft', 'games', ['com.mojang.minecraftlauncher']],
  [42, 'Roblox', 'roblox', 'games', ['com.roblox.RobloxPlayer']],
  [43, 'Roblox Studio', 'roblox-studio', 'games', ['com.roblox.RobloxStudio']],
  [44, 'Epic Games Launcher', 'epic-games-launcher', 'games', ['com.epicgames.EpicGamesLauncher']],
  [45, 'Chess', 'chess', 'games', ['com.apple.Chess']],
  [46, 'GOG Galaxy', 'gog-galaxy', 'games', ['com.gog.galaxy']],
  [47, 'OpenEmu', 'openemu', 'games', ['org.openemu.OpenEmu']],

  // video and music
  [60, 'TV', 'tv', 'video', ['com.apple.TV']],
  [61, 'Music', 'music', 'video', ['com.apple.Music']],
  [62, 'Podcasts', 'podcasts', 'video', ['com.apple.podcasts']],
  [63, 'QuickTime Player', 'quicktime-player', 'video', ['com.apple.QuickTimePlayerX']],
  [64, 'VLC', 'vlc', 'video', ['org.videolan.vlc']],
  [65, 'IINA', 'iina', 'video', ['com.colliderli.iina']],
  [66, 'Spotify', 'spotify', 'video', ['com.spotify.client']],

  // school and productivity
  [80, 'Pages', 'pages', 'school', ['com.apple.iWork.Pages']],
  [81, 'Numbers', 'numbers', 'school', ['com.apple.iWork.Numbers']],
  [82, 'Keynote', 'keynote', 'school', ['com.apple.iWork.Keynote']],
  [83, 'Microsoft Word', 'microsoft-word', 'school', ['com.microsoft.Word']],
  [84, 'Microsoft Excel', 'microsoft-excel', 'school', ['com.microsoft.Excel']],
  [85, 'Microsoft PowerPoint', 'microsoft-powerpoint', 'school', ['com.microsoft.Powerpoint']],
  [86, 'Microsoft OneNote', 'microsoft-onenote', 'school', ['com.microsoft.onenote.mac']],
  [87, 'Google Drive', 'google-drive', 'school', ['com.google.drivefs']],
  [88, 'Notion', 'notion', 'school', ['notion.id']],
  [89, 'GoodNotes', 'goodnotes', 'school', ['com.goodnotesapp.x']],
  [90, 'Anki', 'anki', 'school', ['net.ankiweb.dtop']],
  [91, 'Scratch', 'scratch', 'school', ['edu.mit.scratch.scratch-desktop']],
  [92, 'Xcode', 'xcode', 'school', ['com.apple.dt.Xcode']],
  [93, 'Visual Studio Code', 'visual-studio-code', 'school', ['com.microsoft.VSCode']],
  [94, 'Swift Playgrounds', 'swift-playgrounds', 'school', ['com.apple.PlaygroundsMac']],
  [95, 'Notes', 'notes', 'school', ['com.apple.Notes']],
  [96, 'Reminders', 'reminders', 'school', ['com.apple.reminders']],
  [97, 'Calendar', 'calendar', 'school', ['com.apple.iCal']],
  [98, 'Calculator', 'calculator', 'school', ['com.apple.calculator']],
  [99, 'Dictionary', 'dictionary', 'school', ['com.apple.Dictionary']],
  [100, 'Obsidian', 'obsidian', 'school', ['md.obsidian']],
  [101, 'Evernote', 'evernote', 'school', ['com.evernote.Evernote']],
  [102, 'Zotero', 'zotero', 'school', ['org.zotero.zotero']],

  // creative
  [120, 'GarageBand', 'garageband', 'creative', ['com.apple.garageband10']],
  [121, 'iMovie', 'imovie', 'creative', ['com.apple.iMovieApp']],
  [122, 'Photos', 'photos', 'creative', ['com.apple.Photos']],
  [123, 'Preview', 'preview', 'creative', ['com.apple.Preview']],
  [124, 'Final Cut Pro', 'final-cut-pro', 'creative', ['com.apple.FinalCut']],
  [125, 'Logic Pro', 'logic-pro', 'creative', ['com.apple.logic10']],
  [126, 'Adobe Photoshop', 'adobe-photoshop', 'creative', ['com.adobe.Photoshop']],
  [127, 'Adobe Illustrator', 'adobe-illustrator', 'creative', ['com.adobe.illustrator']],
  [
    128,
    'Adobe Premiere Pro',
    'adobe-premiere-pro',
    'creative',
    ['com.adobe.PremierePro.23', 'com.adobe.PremierePro.24', 'com.adobe.PremierePro.25'],
  ],
  [129, 'Blender', 'blender', 'creative', ['org.blenderfoundation.blender']],
  [130, 'Canva', 'canva', 'creative', ['com.canva.CanvaDesktop']],
  [131, 'Figma', 'figma', 'creative', ['com.figma.Desktop']],
  [
    132,
    'Affinity Photo',
    'affinity-photo',
    'creative',
    ['com.seriflabs.affinityphoto', 'com.seriflabs.affinityphoto2'],
  ],
  [133, 'Pixelmator Pro', 'pixelmator-pro', 'creative', ['com.pixelmatorteam.pixelmator.x']],
  [134, 'Photo Booth', 'photo-booth', 'creative', ['com.apple.PhotoBooth']],
  [135, 'DaVinci Resolve', 'davinci-resolve', 'creative', ['com.blackmagic-design.DaVinciResolve']],
  [136, 'Audacity', 'audacity', 'creative', ['org.audacityteam.audacity']],
  [137, 'OBS Studio', 'obs-studio', 'creative', ['com.obsproject.obs-studio']],
  [138, 'Krita', 'krita', 'creative', ['org.krita']],
  [139, 'GIMP', 'gimp', 'creative', ['org.gimp.gimp-2.10']],

  // system and utilities
  [150, 'Terminal', 'terminal', 'utilities', ['com.apple.Terminal']],
  [151, 'System Settings', 'system-settings', 'utilities', ['com.apple.systempreferences']],
  [152, 'App Store', 'app-store', 'utilities', ['com.apple.AppStore']],
  [153, 'Activity Monitor', 'activity-monitor', 'utilities', ['com.apple.ActivityMonitor']],

  // AI assistants
  [170, 'ChatGPT', 'chatgpt', 'ai', ['com.openai.chat']],
  [171, 'Claude', 'claude', 'ai', ['com.anthropic.claudefordesktop']],
];

/** The browser matchers: every bundle id of the catalogue's browsers. */
export const CATALOGUE_BROWSERS: readonly { name: string; bundleId: string }[] =
  CATALOGUE_APPS.filter(([, , , category]) => category === 'browsers').flatMap(
    ([, name, , , bundleIds]) => bundleIds.map((bundleId) => ({ name, bundleId })),
  );

export const appCatalogueMigration: PortableMigration = () => ({
  async up(db: MigrationDb) {
    // `browsers` had only the matcher; CheckIn_v2 sends each browser with its name.
    await db.schema
      .alterTable('browsers')
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .execute();

    await db
      .insertInto('app_categories')
      .values(
        Object.entries(APP_CATEGORIES).map(([slug, category]) => ({
          id: category.id,
          name: category.name,
          slug,
          created_at: SEEDED_AT,
        })),
      )
      .execute();

    await db
      .insertInto('identified_apps')
      .values(
        CATALOGUE_APPS.map(([n, name, slug, category]) => ({
          id: appId(n),
          category_id: APP_CATEGORIES[category].id,
          name,
          slug,
          // true on both dialects: SQLite stores 1, PostgreSQL reads '1' as true
          launchable: 1,
          description: null,
          created_at: SEEDED_AT,
          updated_at: SEEDED_AT,
        })),
      )
      .execute();

    await db
      .insertInto('app_bundle_ids')
      .values(
        CATALOGUE_APPS.flatMap(([n, , , , bundleIds]) =>
          bundleIds.map((bundleId, i) => ({
            id: bundleIdRowId(n, i + 1),
            identified_app_id: appId(n),
            bundle_id: bundleId,
            created_at: SEEDED_AT,
          })),
        ),
      )
      .execute();

    await db
      .insertInto('browsers')
      .values(
        CATALOGUE_BROWSERS.map((browser, i) => ({
          id: browserRowId(i + 1),
          match: browser.bundleId,
          name: browser.name,
          created_at: SEEDED_AT,
        })),
      )
      .execute();
  },
});
