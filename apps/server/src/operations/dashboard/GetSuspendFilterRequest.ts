import type { SuspendFilterRequest } from '@keyward/contract/shared';
import { extraMonitoringOptions } from '@keyward/domain/extra-monitoring';
import { fromDbBool } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedSuspendFilterRequest } from '../ownership.ts';

// server-behaviour §3.5: a Mac's filter-suspension request, with the extra monitoring the parent
// may add, computed from the child's current settings. deviceId is the computer-user id.
export default dashboardResolver('GetSuspendFilterRequest', async (id, ctx) => {
  const request = await ownedSuspendFilterRequest(ctx.db, ctx.parentId, id);
  const output: SuspendFilterRequest = {
    id: request.id,
    deviceId: request.computer_user_id,
    status: request.status,
    userName: request.child_name,
    requestedDurationInSeconds: request.duration,
    extraMonitoringOptions: extraMonitoringOptions({
      keyloggingEnabled: fromDbBool(request.keylogging_enabled),
      screenshotsEnabled: fromDbBool(request.screenshots_enabled),
      screenshotsFrequency: request.screenshots_frequency,
    }),
    createdAt: request.created_at,
  };
  if (request.request_comment !== null) output.requestComment = request.request_comment;
  if (request.response_comment !== null) output.responseComment = request.response_comment;
  return output;
});
