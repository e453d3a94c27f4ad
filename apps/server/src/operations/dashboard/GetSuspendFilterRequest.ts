import type { SuspendFilterRequest } from '@keyward/contract/shared';
import { extraMonitoringOptions } from '@keyward/domain/extra-monitoring';
import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedAnySuspendFilterRequest } from '../ownership.ts';

// server-behaviour §3.5: a filter-suspension request, with the extra monitoring the parent may add,
// computed from the child's current settings. For a Mac, deviceId is the computer-user id.
// Beyond the reference, an iOS device's request is read the same way: deviceId is the iOS device
// id, and no extra monitoring is offered (the iOS app has none).
export default dashboardResolver('GetSuspendFilterRequest', async (id, ctx) => {
  const found = await ownedAnySuspendFilterRequest(ctx.db, ctx.parentId, id);
  const request = found.request;
  const output: SuspendFilterRequest =
    found.device === 'mac'
      ? {
          id: request.id,
          deviceId: found.request.computer_user_id,
          status: request.status,
          userName: request.child_name,
          requestedDurationInSeconds: request.duration,
          extraMonitoringOptions: extraMonitoringOptions({
            keyloggingEnabled: fromDbBool(found.request.keylogging_enabled),
            screenshotsEnabled: fromDbBool(found.request.screenshots_enabled),
            screenshotsFrequency: found.request.screenshots_frequency,
          }),
          createdAt: request.created_at,
        }
      : {
          id: request.id,
          deviceId: found.request.device_id,
          status: request.status,
          userName: request.child_name,
          requestedDurationInSeconds: request.duration,
          extraMonitoringOptions: {},
          createdAt: request.created_at,
        };
  if (request.request_comment !== null) output.requestComment = request.request_comment;
  if (request.response_comment !== null) output.responseComment = request.response_comment;
  return output;
});
