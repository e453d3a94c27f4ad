import type { IdentifiedApp } from '@keyward/contract/shared';
import { groupBy } from '../../collections.ts';
import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.4: the catalogue of known Mac apps (seeded by migration 0002), the same for
// every parent.
export default dashboardResolver('GetIdentifiedApps', async (_input, ctx) => {
  const apps = await ctx.db
    .selectFrom('identified_apps as a')
    .leftJoin('app_categories as c', 'c.id', 'a.category_id')
    .select([
      'a.id',
      'a.name',
      'a.slug',
      'a.launchable',
      'c.id as category_id',
      'c.name as category_name',
      'c.slug as category_slug',
    ])
    .orderBy('a.name')
    .orderBy('a.id')
    .execute();
  const bundleIds = await ctx.db
    .selectFrom('app_bundle_ids')
    .select(['id', 'identified_app_id', 'bundle_id'])
    .orderBy('bundle_id')
    .execute();
  const bundleIdsOf = groupBy(bundleIds, (row) => row.identified_app_id);

  return apps.map((app): IdentifiedApp => {
    const identified: IdentifiedApp = {
      id: app.id,
      name: app.name,
      slug: app.slug,
      launchable: fromDbBool(app.launchable),
      bundleIds: (bundleIdsOf.get(app.id) ?? []).map((row) => ({
        id: row.id,
        bundleId: row.bundle_id,
      })),
    };
    if (app.category_id !== null && app.category_name !== null && app.category_slug !== null) {
      identified.category = {
        id: app.category_id,
        name: app.category_name,
        slug: app.category_slug,
      };
    }
    return identified;
  });
});
