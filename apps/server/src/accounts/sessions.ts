import { addMs, DAY, toDbTime } from '../db/values.ts';
import type { RequestContext } from '../pairql/context.ts';
import { ofPerson } from './people.ts';
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

/**
 * Ends every session of one person (issue 12): the owner's sessions (person id = the account id)
 * or one co-parent's. The other people of the family stay signed in: each has their own login.
 */
export async function revokeSessionsOf(
  ctx: Pick<RequestContext, 'db' | 'clock'>,
  person: { parentId: string; personId: string },
): Promise<void> {
  await ctx.db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: toDbTime(ctx.clock.now()) })
    .where('parent_id', '=', person.parentId)
    .where(ofPerson(person))
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Ends every session of the person but the one acting (issue 19): when a person turns on a second
 * factor, a session opened before with the password alone (on a device left signed in, or by
 * someone who had the password) must not outlive it, as after a password reset.
 */
export async function endOtherSessions(
  ctx: Pick<RequestContext, 'db' | 'clock'>,
  person: { parentId: string; personId: string; sessionId: string },
): Promise<void> {
  await ctx.db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: toDbTime(ctx.clock.now()) })
    .where('parent_id', '=', person.parentId)
    .where(ofPerson(person))
    .where('id', '!=', person.sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}
