import { toIosSuspensionDecision } from '../../ios/wire.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: the device polls for the decision on its own request; any other id,
// including another device's, is `notFound`. Answered as the app's synthesized enum:
// `{"pending": {}}`, `{"denied": {"parentComment": …}}`, `{"accepted": {"duration": 1200, …}}`,
// `{"notFound": {}}`.
export default iosResolver('PollFilterSuspensionDecision', async (requestId, ctx) => {
  const request = await ctx.db
    .selectFrom('ios_suspend_filter_requests')
    .select(['status', 'duration', 'response_comment'])
    .where('id', '=', requestId)
    .where('device_id', '=', ctx.deviceId)
    .executeTakeFirst();
  return toIosSuspensionDecision(request);
});
