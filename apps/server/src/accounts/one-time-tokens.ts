import type { Selectable } from 'kysely';
import type { OneTimeTokensTable, TokenPurpose } from '../db/schema.ts';
import { addMs, DAY, HOUR, toDbTime } from '../db/values.ts';
import type { RequestContext } from '../pairql/context.ts';
import { hashToken, isUuid, newToken } from '../services/tokens.ts';
import { ofPerson } from './people.ts';

// Single-use tokens bound to exactly one purpose (server-behaviour §2.3).

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  magicLink: HOUR,
  passwordReset: HOUR,
  emailVerification: DAY,
};

export async function mintOneTimeToken(
  ctx: RequestContext,
  parentId: string,
  purpose: TokenPurpose,
  /** a co-parent's magic link or reset (issue 12); absent = the owner's */
  personId?: string,
): Promise<string> {
  const token = newToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('one_time_tokens')
    .values({
      id: newToken(),
      purpose,
      token_hash: hashToken(token),
      parent_id: parentId,
      person_id: personId === undefined || personId === parentId ? null : personId,
      expires_at: toDbTime(addMs(now, TOKEN_LIFETIME_MS[purpose])),
      used_at: null,
      created_at: toDbTime(now),
    })
    .execute();
  return token;
}

export type TokenLookup =
  | { state: 'unknown' }
  | { state: 'expired' | 'used' | 'valid'; row: Selectable<OneTimeTokensTable> };

/** A token of another purpose is `unknown`: it can only be redeemed by its own operation. */
export async function lookupOneTimeToken(
  ctx: RequestContext,
  token: string,
  purpose: TokenPurpose,
): Promise<TokenLookup> {
  if (!isUuid(token)) return { state: 'unknown' };
  const row = await ctx.db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!row) return { state: 'unknown' };
  if (row.used_at !== null) return { state: 'used', row };
  if (row.expires_at <= toDbTime(ctx.clock.now())) return { state: 'expired', row };
  return { state: 'valid', row };
}

/** Marks the token used; false if another request used it first (single use under concurrency). */
export async function markTokenUsed(ctx: RequestContext, tokenId: string): Promise<boolean> {
  const result = await ctx.db
    .updateTable('one_time_tokens')
    .set({ used_at: toDbTime(ctx.clock.now()) })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Spends every unused token of these purposes that one person holds (the owner's, or one
 * co-parent's): nothing that person was sent before a password reset still works, and the other
 * people of the family keep theirs (issue 12).
 */
export async function revokeOneTimeTokens(
  ctx: Pick<RequestContext, 'db' | 'clock'>,
  person: { parentId: string; personId: string },
  purposes: TokenPurpose[],
): Promise<void> {
  await ctx.db
    .updateTable('one_time_tokens')
    .set({ used_at: toDbTime(ctx.clock.now()) })
    .where('parent_id', '=', person.parentId)
    .where(ofPerson(person))
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}
