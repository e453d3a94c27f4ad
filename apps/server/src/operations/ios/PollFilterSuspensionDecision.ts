import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: the device polls for the decision on its own request; any other id,
// including another device's, is `notFound`.
export default iosResolver('PollFilterSuspensionDecision', async (requestId, ctx) => {
  const request = await ctx.db
    .selectFrom('ios_suspend_filter_requests')
    .select(['status', 'duration', 'response_comment'])
    .where('id', '=', requestId)
    .where('device_id', '=', ctx.deviceId)
    .executeTakeFirst();
  if (!request) return { case: 'notFound' };
  const comment = request.response_comment ? { parentComment: request.response_comment } : {};
  switch (request.status) {
    case 'pending':
      return { case: 'pending' };
    case 'rejected':
      return { case: 'denied', ...comment };
    case 'accepted':
      return { case: 'accepted', duration: request.duration, ...comment };
  }
});
