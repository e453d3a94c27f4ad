import { deviceResolver } from '../../pairql/resolver.ts';

// The app's administrator window lists recent versions to install: the 12 newest releases, each
// semver with its label ("2.7.5", or "2.8.0 (beta)" off the stable channel).
export default deviceResolver('RecentAppVersions', async (_input, ctx) => {
  const releases = await ctx.db
    .selectFrom('releases')
    .select(['semver', 'channel'])
    .orderBy('release_date', 'desc')
    .orderBy('semver', 'desc')
    .limit(12)
    .execute();
  const versions: Record<string, string> = {};
  for (const release of releases) {
    versions[release.semver] =
      release.channel === 'stable' ? release.semver : `${release.semver} (${release.channel})`;
  }
  return versions;
});
