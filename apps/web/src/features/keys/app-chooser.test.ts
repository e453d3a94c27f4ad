import type { IdentifiedApp } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { appChooserHint, MAX_APPS_SHOWN, matchingApps } from './app-chooser';

const app = (name: string, slug = name.toLowerCase().replaceAll(' ', '-')): IdentifiedApp => ({
  id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
  name,
  slug,
  launchable: true,
  bundleIds: [],
});

const catalogue = [
  'Arc',
  'Chrome',
  'Discord',
  'Firefox',
  'Minecraft',
  'Roblox',
  'Safari',
  'Slack',
  'Steam',
  'Zoom',
  'Zoom Workplace',
].map((name) => app(name));

describe('app chooser', () => {
  test('shows the first apps only, but search finds one beyond them', () => {
    expect(matchingApps(catalogue, '')).toHaveLength(MAX_APPS_SHOWN);
    expect(matchingApps(catalogue, '').map((a) => a.name)).not.toContain('Zoom');
    expect(matchingApps(catalogue, 'ZOO').map((a) => a.name)).toEqual(['Zoom', 'Zoom Workplace']);
    expect(matchingApps(catalogue, 'zoom-work').map((a) => a.name)).toEqual(['Zoom Workplace']);
  });

  test.each<[string, readonly IdentifiedApp[], string, string]>([
    ['a long list', catalogue, '', 'Showing 8 of 11 apps: search finds any of them.'],
    ['a short list', catalogue.slice(0, 3), '', 'Search by the app name.'],
    ['a narrow search', catalogue, 'zoom', 'Search looks through every app we know.'],
    [
      'a wide search',
      [...catalogue, app('Rollercoaster')],
      'r',
      'Showing 8 of 9 matching apps: type more of the name to narrow them.',
    ],
  ])('hint for %s', (_case, apps, query, hint) => {
    expect(appChooserHint(apps, query)).toBe(hint);
  });
});
