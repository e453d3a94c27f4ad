import { describe, expect, test } from 'vitest';
import {
  APP_CATEGORIES,
  CATALOGUE_APPS,
  CATALOGUE_BROWSERS,
} from '../src/db/migrations/0002_app_catalogue.ts';
import { serverWithParents } from './fixtures.ts';

const { server, alice, bob } = await serverWithParents();

interface App {
  id: string;
  name: string;
  slug: string;
  launchable: boolean;
  bundleIds: { id: string; bundleId: string }[];
  category?: { id: string; name: string; slug: string };
}

describe('the app catalogue (migration 0002)', () => {
  test('at least 60 apps, unique slugs, ids and bundle ids; every app has a bundle id', () => {
    expect(CATALOGUE_APPS.length).toBeGreaterThanOrEqual(60);
    const slugs = CATALOGUE_APPS.map(([, , slug]) => slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const numbers = CATALOGUE_APPS.map(([n]) => n);
    expect(new Set(numbers).size).toBe(numbers.length);
    const bundleIds = CATALOGUE_APPS.flatMap(([, , , , ids]) => ids);
    expect(new Set(bundleIds).size).toBe(bundleIds.length);
    for (const [, name, , , ids] of CATALOGUE_APPS) {
      expect(ids.length, name).toBeGreaterThan(0);
      for (const id of ids) expect(id, name).toMatch(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/);
    }
  });

  test('covers browsers, messaging, games, video, school and creative apps', () => {
    const slugsIn = (category: string) =>
      CATALOGUE_APPS.filter(([, , , c]) => c === category).map(([, , slug]) => slug);
    expect(slugsIn('browsers')).toEqual(
      expect.arrayContaining([
        'safari',
        'google-chrome',
        'firefox',
        'microsoft-edge',
        'brave-browser',
        'arc',
      ]),
    );
    expect(slugsIn('messaging')).toEqual(
      expect.arrayContaining(['messages', 'facetime', 'whatsapp', 'discord', 'zoom']),
    );
    expect(slugsIn('games')).toEqual(expect.arrayContaining(['steam', 'minecraft', 'roblox']));
    expect(slugsIn('video')).toEqual(expect.arrayContaining(['tv', 'vlc', 'spotify']));
    expect(slugsIn('school')).toEqual(expect.arrayContaining(['pages', 'microsoft-word', 'xcode']));
    expect(slugsIn('creative')).toEqual(expect.arrayContaining(['garageband', 'imovie', 'figma']));
  });
});

describe('GetIdentifiedApps', () => {
  test('returns the seeded catalogue with bundle ids and categories', async () => {
    const result = await server.call('GetIdentifiedApps', undefined, { token: alice.token });
    expect(result.status).toBe(200);
    const apps = result.body as App[];
    expect(apps).toHaveLength(CATALOGUE_APPS.length);
    expect(new Set(apps.map((a) => a.slug)).size).toBe(apps.length);
    for (const app of apps) {
      expect(app.bundleIds.length, app.slug).toBeGreaterThan(0);
      expect(app.launchable).toBe(true);
      expect(app.category).toBeDefined();
    }

    const chrome = apps.find((a) => a.slug === 'google-chrome');
    expect(chrome).toMatchObject({
      name: 'Google Chrome',
      category: { id: APP_CATEGORIES.browsers.id, name: 'Web browsers', slug: 'browsers' },
    });
    expect(chrome?.bundleIds.map((b) => b.bundleId)).toContain('com.google.Chrome');

    const bySlug = new Map(apps.map((a) => [a.slug, a]));
    const expected: [string, string][] = [
      ['safari', 'com.apple.Safari'],
      ['firefox', 'org.mozilla.firefox'],
      ['microsoft-edge', 'com.microsoft.edgemac'],
      ['brave-browser', 'com.brave.Browser'],
      ['arc', 'company.thebrowser.Browser'],
      ['steam', 'com.valvesoftware.steam'],
      ['discord', 'com.hnc.Discord'],
    ];
    for (const [slug, bundleId] of expected) {
      expect(
        bySlug.get(slug)?.bundleIds.map((b) => b.bundleId),
        slug,
      ).toContain(bundleId);
    }
  });

  test('is the same for every parent, with stable ids', async () => {
    const mine = await server.call('GetIdentifiedApps', undefined, { token: alice.token });
    const theirs = await server.call('GetIdentifiedApps', undefined, { token: bob.token });
    expect(theirs.body).toEqual(mine.body);
    const safari = (mine.body as App[]).find((a) => a.slug === 'safari');
    expect(safari?.id).toBe('a9910000-0000-4000-8000-000000000001');
  });

  test('needs a session', async () => {
    expect((await server.call('GetIdentifiedApps')).status).toBe(401);
  });
});

test('the browsers table holds every browser bundle id with its name', async () => {
  const rows = await server.db.selectFrom('browsers').select(['match', 'name']).execute();
  expect(rows).toHaveLength(CATALOGUE_BROWSERS.length);
  expect(rows).toEqual(
    expect.arrayContaining([
      { match: 'com.apple.Safari', name: 'Safari' },
      { match: 'com.google.Chrome', name: 'Google Chrome' },
      { match: 'org.mozilla.firefox', name: 'Firefox' },
      { match: 'com.microsoft.edgemac', name: 'Microsoft Edge' },
      { match: 'com.brave.Browser', name: 'Brave Browser' },
      { match: 'company.thebrowser.Browser', name: 'Arc' },
      { match: 'com.operasoftware.Opera', name: 'Opera' },
      { match: 'com.vivaldi.Vivaldi', name: 'Vivaldi' },
    ]),
  );
});
