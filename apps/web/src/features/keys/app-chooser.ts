import type { IdentifiedApp } from '@keyward/contract/shared';

// The key wizard's app chooser: a short list of the catalogue, narrowed by a search that looks at
// every app, not only the ones on screen.

export const MAX_APPS_SHOWN = 8;

export const APP_SEARCH_PLACEHOLDER = 'Type an app name to search';

/** Apps whose name or slug contains the query (any letter case), the first few of them. */
export function matchingApps(apps: readonly IdentifiedApp[], query: string): IdentifiedApp[] {
  return allMatchingApps(apps, query).slice(0, MAX_APPS_SHOWN);
}

function allMatchingApps(apps: readonly IdentifiedApp[], query: string): IdentifiedApp[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...apps];
  return apps.filter((app) => app.name.toLowerCase().includes(q) || app.slug.includes(q));
}

/** Says that more apps exist than the list shows, and that searching finds them. */
export function appChooserHint(apps: readonly IdentifiedApp[], query: string): string {
  const found = allMatchingApps(apps, query).length;
  if (query.trim() === '') {
    return found > MAX_APPS_SHOWN
      ? `Showing ${MAX_APPS_SHOWN} of ${found} apps: search finds any of them.`
      : 'Search by the app name.';
  }
  return found > MAX_APPS_SHOWN
    ? `Showing ${MAX_APPS_SHOWN} of ${found} matching apps: type more of the name to narrow them.`
    : 'Search looks through every app we know.';
}
