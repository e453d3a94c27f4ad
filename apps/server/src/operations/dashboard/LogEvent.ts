import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';

/** Longest detail kept; the rest of an over-long detail is cut off. */
export const APP_EVENT_DETAIL_LIMIT = 2000;

// server-behaviour §3.10: an app_events row from the dashboard (eventId is a short hex code naming
// the place in the web app, detail free text), kept for the operator.
export default dashboardResolver('LogEvent', async (input, ctx) => {
  const eventId = input.eventId.trim();
  if (!/^[0-9a-f]{1,64}$/i.test(eventId)) {
    throw badRequest(
      '3c8e51d7',
      `LogEvent eventId is not a short hex code: ${JSON.stringify(input.eventId.slice(0, 80))}`,
      'This event could not be recorded. Reload the page and try again.',
    );
  }
  await ctx.db
    .insertInto('app_events')
    .values({
      id: newToken(),
      event_id: eventId.toLowerCase(),
      kind: 'dashboard',
      context: 'web',
      computer_user_id: null,
      parent_id: ctx.parentId,
      detail: input.detail.slice(0, APP_EVENT_DETAIL_LIMIT),
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
  return { success: true };
});
