import type { Db } from '../db/database.ts';
import type { RequestContext } from '../pairql/context.ts';
import { RATE_LIMITS } from '../pairql/rate-limit.ts';
import { newToken } from '../services/tokens.ts';

// Diagnostic events the device apps report about themselves (LogInterestingEvent, LogFilterEvents,
// ReportBrowsers), kept in app_events for the operator like the dashboard's LogEvent. They change
// nothing a family sees. A device's events are budgeted per address and, when signed in, per device,
// so a looping app cannot fill the table.

const DETAIL_LIMIT = 2000;

export interface AppEvent {
  eventId: string;
  kind: string;
  /** macapp, macapp-filter, ios */
  context: string;
  computerUserId?: string | null;
  parentId?: string | null;
  detail?: string | null;
}

/** Throws the contract's 429 when the address (and the device, when given) is over budget. */
export async function takeAppEventBudget(ctx: RequestContext, deviceKey?: string): Promise<void> {
  const { appEventsPerIp, appEventsPerDevice } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `app-events:ip:${ctx.ip}`,
    appEventsPerIp.limit,
    appEventsPerIp.windowSeconds,
  );
  if (deviceKey !== undefined) {
    await ctx.services.rateLimit.consume(
      `app-events:device:${deviceKey}`,
      appEventsPerDevice.limit,
      appEventsPerDevice.windowSeconds,
    );
  }
}

export async function recordAppEvents(db: Db, at: Date, events: AppEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('app_events')
    .values(
      events.map((event) => ({
        id: newToken(),
        event_id: event.eventId,
        kind: event.kind,
        context: event.context,
        computer_user_id: event.computerUserId ?? null,
        parent_id: event.parentId ?? null,
        detail: event.detail == null ? null : event.detail.slice(0, DETAIL_LIMIT),
        created_at: at.toISOString(),
      })),
    )
    .execute();
}
