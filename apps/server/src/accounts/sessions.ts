import { addMs, DAY, toDbTime } from '../db/values.ts';
import type { RequestContext } from '../pairql/context.ts';
import { hashToken, newToken } from '../services/tokens.ts';

export const SESSION_LIFETIME_MS = 28 * DAY;

/**
 * A fixed 28-day dashboard session; returns the plaintext token (only its hash is stored).
 * `personId`: the co-parent it is for (issue 12); absent or the account id = the owner.
 */
export async function createSession(
  ctx: RequestContext,
  parentId: string,
  personId?: string,
): Promise<string> {
  const token = newToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('dashboard_sessions')
    .values({
      id: newToken(),
      token_hash: hashToken(token),
      parent_id: parentId,
      person_id: personId === undefined || personId === parentId ? null : personId,
      created_at: toDbTime(now),
      expires_at: toDbTime(addMs(now, SESSION_LIFETIME_MS)),
      revoked_at: null,
    })
    .execute();
  return token;
}

export async function revokeAllSessions(ctx: RequestContext, parentId: string): Promise<void> {
  await ctx.db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: toDbTime(ctx.clock.now()) })
    .where('parent_id', '=', parentId)
    .where('revoked_at', 'is', null)
    .execute();
}
