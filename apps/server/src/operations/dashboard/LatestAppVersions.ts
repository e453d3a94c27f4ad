import { latestAppVersions } from '../../devices/releases.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.3: per channel, the highest release on it or a more stable one.
export default dashboardResolver('LatestAppVersions', async (_input, ctx) =>
  latestAppVersions(ctx.db),
);
