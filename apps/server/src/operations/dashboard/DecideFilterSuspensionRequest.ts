import { dashboardResolver } from '../../pairql/resolver.ts';
import { decideSuspensionRequest } from '../../requests/suspension-decision.ts';

// server-behaviour §3.5: the parent grants (duration, optional extra monitoring) or denies a
// pending request under 2 hours old; the decision is pushed to the Mac that asked, and only to it.
// Beyond the reference, a request of any kind of device (an iOS device polls for its decision) is
// decided through the same path (requests/suspension-decision.ts, issue 20).
export default dashboardResolver('DecideFilterSuspensionRequest', async (input, ctx) => {
  await decideSuspensionRequest(ctx, input);
  return { success: true };
});
