import type { PushSuspensionAction } from '@keyward/contract/push';
import type { DecideFilterSuspensionRequestInput } from '@keyward/contract/shared';
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { addMs, MINUTE, toDbTime } from '../db/values.ts';
import type { TokenService } from '../services/tokens.ts';
import { isUuid, newToken } from '../services/tokens.ts';

// Issue 23: a suspension-request push notification carries buttons ("Allow 15 minutes", "Deny")
// that decide without opening the dashboard. No session lives in the service worker: the message
// carries an action token instead, `{id}.{signature}`, where the signature is the server's HMAC of
// the id, the family, the request and the expiry. The row (push_action_tokens) binds it to that one
// request of that one family and is spent by the first use, so a token decides one request once,
// within ACTION_TOKEN_LIFETIME_MS, and nothing else.

export const ACTION_TOKEN_LIFETIME_MS = 30 * MINUTE;

/** The buttons of a suspension-request notification and what each decides. */
export const SUSPENSION_ACTIONS: Record<
  PushSuspensionAction,
  { title: string; decision: DecideFilterSuspensionRequestInput['decision'] }
> = {
  allow15: {
    title: 'Allow 15 minutes',
    decision: { case: 'accepted', durationInSeconds: 15 * 60 },
  },
  deny: { title: 'Deny', decision: { case: 'rejected' } },
};

function signature(
  tokens: TokenService,
  row: { id: string; parent_id: string; request_id: string; expires_at: string },
): string {
  return tokens.hmac(
    ['push-action', row.id, row.parent_id, row.request_id, row.expires_at].join('|'),
  );
}

export async function mintActionToken(
  db: Db,
  tokens: TokenService,
  now: Date,
  grant: { parentId: string; personId: string | null; requestId: string; methodId: string },
): Promise<string> {
  const row = {
    id: newToken(),
    parent_id: grant.parentId,
    person_id: grant.personId,
    // issue 31: removing the phone revokes the token (foreign key cascade)
    method_id: grant.methodId,
    request_id: grant.requestId.toLowerCase(),
    expires_at: toDbTime(addMs(now, ACTION_TOKEN_LIFETIME_MS)),
    used_at: null,
    created_at: toDbTime(now),
  };
  await db.insertInto('push_action_tokens').values(row).execute();
  return `${row.id}.${signature(tokens, row)}`;
}

export interface SpentActionToken {
  parentId: string;
  /** the person whose device it was sent to (the owner when the row has none) */
  personId: string;
  requestId: string;
}

/**
 * Spends a token: its grant when it is genuine, unused and unexpired, else undefined (any of
 * these, told apart only in the log). Two racing uses: exactly one gets the grant.
 */
export async function spendActionToken(
  db: Db,
  tokens: TokenService,
  now: Date,
  token: string,
): Promise<SpentActionToken | undefined> {
  const [id, given] = token.split('.');
  if (!id || !given || !isUuid(id)) return undefined;
  const row = await db
    .selectFrom('push_action_tokens')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  const expected = Buffer.from(signature(tokens, row));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  const spent = await db
    .updateTable('push_action_tokens')
    .set({ used_at: toDbTime(now) })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', toDbTime(now))
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) return undefined;
  return {
    parentId: row.parent_id,
    personId: row.person_id ?? row.parent_id,
    requestId: row.request_id,
  };
}
