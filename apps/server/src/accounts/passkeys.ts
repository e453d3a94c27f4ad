import type { RequestContext } from '../pairql/context.ts';
import { addMs, MINUTE, toDbTime } from '../db/values.ts';
import { unauthorized } from '../pairql/errors.ts';
import { newToken } from '../services/tokens.ts';

// Passkeys (WebAuthn, @simplewebauthn/server) for sign-in: as a second factor after the password or
// magic link, or as a password-less sign-in. The relying party is the dashboard: its id is the
// hostname of the dashboard URL, and a response is accepted from any allow-listed dashboard origin
// (DASHBOARD_URL), never from another site.

export const CEREMONY_LIFETIME_MS = 5 * MINUTE;

export function relyingParty(ctx: Pick<RequestContext, 'config' | 'dashboardUrl'>) {
  const origins = ctx.config.dashboardUrls.map((url) => new URL(url).origin);
  return {
    name: ctx.config.appName,
    id: new URL(ctx.dashboardUrl).hostname,
    expectedOrigins: origins,
    expectedRpIds: [...new Set(origins.map((origin) => new URL(origin).hostname))],
  };
}

export async function saveCeremony(
  ctx: RequestContext,
  values: {
    challenge: string;
    purpose: 'registration' | 'login';
    parentId: string | null;
    personId: string | null;
    secondFactorChallengeId: string | null;
  },
): Promise<string> {
  const id = newToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('webauthn_challenges')
    .values({
      id,
      challenge: values.challenge,
      purpose: values.purpose,
      parent_id: values.parentId,
      person_id: values.personId,
      second_factor_challenge_id: values.secondFactorChallengeId,
      expires_at: toDbTime(addMs(now, CEREMONY_LIFETIME_MS)),
      used_at: null,
      created_at: toDbTime(now),
    })
    .execute();
  return id;
}

export const passkeyRefused = () =>
  unauthorized(
    '9a55c0e2',
    'Passkey ceremony unknown, expired, used or not verified',
    "That passkey didn't work. Please try again, or sign in with your password.",
  );

/** Spends a ceremony (one conditional update: a challenge is verified once). */
export async function spendCeremony(
  ctx: RequestContext,
  id: string,
  purpose: 'registration' | 'login',
) {
  const now = toDbTime(ctx.clock.now());
  const row = await ctx.db
    .selectFrom('webauthn_challenges')
    .selectAll()
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) throw passkeyRefused();
  const spent = await ctx.db
    .updateTable('webauthn_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw passkeyRefused();
  return row;
}
