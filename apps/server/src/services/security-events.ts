import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from './clock.ts';
import { newToken } from './tokens.ts';

/** What recording an event needs of a request: a request's context (pairql/context.ts) has it. */
export interface SecurityEventRequest {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** the client's address */
  ip: string;
}

/**
 * Stores a dashboard security event (server-behaviour §3.9 names: login, loginFailed,
 * passwordResetRequested, passwordChanged, childAdded, …) with the client IP. Awaited so tests are
 * deterministic, but never throws: a failure is logged and the operation carries on.
 */
export async function recordSecurityEvent(
  ctx: SecurityEventRequest,
  parentId: string,
  event: string,
  detail?: string,
): Promise<void> {
  try {
    await ctx.db
      .insertInto('security_events')
      .values({
        id: newToken(),
        parent_id: parentId,
        computer_user_id: null,
        event: event.slice(0, 255),
        detail: detail ?? null,
        ip_address: ctx.ip.slice(0, 64),
        created_at: ctx.clock.now().toISOString(),
      })
      .execute();
  } catch (error) {
    ctx.log.error({ err: error, event }, 'could not record security event');
  }
}
