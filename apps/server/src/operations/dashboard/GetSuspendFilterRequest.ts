import { dashboardResolver } from '../../pairql/resolver.ts';
import { suspendFilterRequestOutput } from '../../requests/suspension-decision.ts';
import { ownedSuspensionRequest } from '../ownership.ts';

// server-behaviour §3.5: a filter-suspension request, with the extra monitoring the parent may add,
// computed from the child's current settings. For a Mac, deviceId is the computer-user id.
// Beyond the reference, a request of any kind of device is read the same way (issue 20): for iOS,
// deviceId is the iOS device id, and no extra monitoring is offered (the iOS app has none).
export default dashboardResolver('GetSuspendFilterRequest', async (id, ctx) =>
  suspendFilterRequestOutput(await ownedSuspensionRequest(ctx.db, ctx.parentId, id)),
);
