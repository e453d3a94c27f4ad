import { connectedDeviceOfVendor } from '../../ios/app-groups.ts';
import { iosResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §5: the iOS app reports what happens on the device (onboarding steps, filter
// trouble) by a short event id and free text. Kept in app_events (context `ios`) for the operator,
// like the dashboard's LogEvent; nothing a family sees changes. Anyone can call it, so it is
// bounded: the contract caps every field, the stored detail keeps its first 2,000 characters, and
// each address may send IOS_EVENTS_PER_IP an hour (then the contract's 429).

export const IOS_EVENTS_PER_IP = { limit: 120, windowSeconds: 60 * 60 } as const;
export const IOS_EVENT_STORED_DETAIL = 2000;

const ONBOARDING_PREFIX = '[onboarding]: ';

/** onboarding, filter or info, from the detail's own markers. */
function kindOf(detail: string | undefined): 'onboarding' | 'filter' | 'info' {
  if (detail?.includes('[onboarding]')) return 'onboarding';
  if (detail?.includes('controller proxy') || detail?.includes('filter install')) return 'filter';
  return 'info';
}

export default iosResolver('LogIOSEvent', async (input, ctx) => {
  await ctx.services.rateLimit.consume(
    `ios-events:ip:${ctx.ip}`,
    IOS_EVENTS_PER_IP.limit,
    IOS_EVENTS_PER_IP.windowSeconds,
  );
  const text = input.detail?.startsWith(ONBOARDING_PREFIX)
    ? input.detail.slice(ONBOARDING_PREFIX.length)
    : input.detail;
  // the device first, so that cutting a long detail never loses it
  const device = `[${input.deviceType}, iOS ${input.iOSVersion}, vendor id ${input.vendorId ?? 'none'}, ${input.kind}]`;
  const owner = await connectedDeviceOfVendor(ctx.db, input.vendorId);
  await ctx.db
    .insertInto('app_events')
    .values({
      id: newToken(),
      event_id: input.eventId.trim(),
      kind: kindOf(input.detail),
      context: 'ios',
      computer_user_id: null,
      parent_id: owner?.parentId ?? null,
      detail: (text ? `${device} ${text}` : device).slice(0, IOS_EVENT_STORED_DETAIL),
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
  return {};
});
