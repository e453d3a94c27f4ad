import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { addMs, MINUTE, toDbTime } from '../db/values.ts';
import { unauthorized } from '../pairql/errors.ts';
import type { RequestContext } from '../pairql/context.ts';
import type { TemplateName, TemplateParams } from '../services/mail-templates.ts';
import { RATE_LIMITS, type Reservation } from '../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../services/security-events.ts';
import { hashToken, newToken } from '../services/tokens.ts';
import { createSession } from './sessions.ts';

// Two-factor sign-in (issue 12). Every second factor belongs to the PERSON acting (the owner, whose
// person id is the family's parents.id, or a co-parent), never to the family account.
// - authenticator app (RFC 6238 via otplib): secret AES-256-GCM encrypted at rest, a code is
//   accepted once (last_time_step), one step of clock drift either way;
// - 10 single-use recovery codes, stored as HMACs;
// - passkeys (operations/dashboard/*Passkey*.ts, accounts/passkeys.ts).
// With a factor on, Login and LoginMagicLink answer a short-lived single-use challenge instead of a
// session; LoginSecondFactor / FinishPasskeyLogin redeem it.

export const CHALLENGE_LIFETIME_MS = 10 * MINUTE;
export const RECOVERY_CODE_COUNT = 10;
const TOTP_PERIOD_SECONDS = 30;

export type SecondFactorMethod = 'totp' | 'passkey';

export interface Person {
  /** The family account. */
  parentId: string;
  /** The person signing in. */
  personId: string;
}

/** The person's email address: the owner's account email or a co-parent's. */
export async function personEmail(
  ctx: Pick<RequestContext, 'db'>,
  personId: string,
): Promise<string | null> {
  const owner = await ctx.db
    .selectFrom('parents')
    .select('email')
    .where('id', '=', personId)
    .executeTakeFirst();
  if (owner) return owner.email;
  const coParent = await ctx.db
    .selectFrom('co_parents')
    .select('email')
    .where('id', '=', personId)
    .executeTakeFirst();
  return coParent?.email ?? null;
}

/** Sends a sign-in security email to the person; a failure is logged, never thrown. */
export async function emailPerson<Name extends TemplateName>(
  ctx: Pick<RequestContext, 'db' | 'services' | 'log'>,
  personId: string,
  template: Name,
  params: TemplateParams[Name],
): Promise<void> {
  try {
    const email = await personEmail(ctx, personId);
    if (email) await ctx.services.email.send(template, email, params);
  } catch (error) {
    ctx.log.error({ err: error, template }, 'could not send a sign-in security email');
  }
}

export async function secondFactorMethods(
  ctx: RequestContext,
  personId: string,
): Promise<SecondFactorMethod[]> {
  const [totp, passkey] = await Promise.all([
    ctx.db
      .selectFrom('totp_factors')
      .select('person_id')
      .where('person_id', '=', personId)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('passkeys')
      .select('id')
      .where('person_id', '=', personId)
      .limit(1)
      .executeTakeFirst(),
  ]);
  return [...(totp ? (['totp'] as const) : []), ...(passkey ? (['passkey'] as const) : [])];
}

/**
 * The end of a first step (password, magic link): a session and a `login` event when the person
 * has no second factor (today's answer), else a challenge for the second step.
 */
export async function sessionOrChallenge(
  ctx: RequestContext,
  person: Person,
  firstStep: string,
): Promise<{ adminId: string; token: string } | SecondFactorChallenge> {
  const methods = await secondFactorMethods(ctx, person.personId);
  if (methods.length === 0) {
    const token = await createSession(ctx, person.parentId, person.personId);
    await recordSecurityEvent(ctx, person.parentId, 'login', firstStep);
    return { adminId: person.parentId, token };
  }
  const challenge = newToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('second_factor_challenges')
    .values({
      id: newToken(),
      token_hash: hashToken(challenge),
      parent_id: person.parentId,
      person_id: person.personId,
      first_step: firstStep,
      expires_at: toDbTime(addMs(now, CHALLENGE_LIFETIME_MS)),
      used_at: null,
      created_at: toDbTime(now),
    })
    .execute();
  return { secondFactorChallenge: challenge, secondFactorMethods: methods };
}

export interface SecondFactorChallenge {
  secondFactorChallenge: string;
  secondFactorMethods: SecondFactorMethod[];
}

export const challengeExpired = () =>
  unauthorized(
    '2fa0c4e1',
    'Second-factor challenge not found, expired or already used',
    'This sign-in has expired. Please sign in again.',
    { dashboardTag: 'secondFactorChallengeExpired' },
  );

export interface ChallengeRow {
  id: string;
  parent_id: string;
  person_id: string;
  first_step: string;
}

/** A challenge that is known, unexpired and unused (not yet spent). */
export async function findChallenge(ctx: RequestContext, challenge: string): Promise<ChallengeRow> {
  const row = await ctx.db
    .selectFrom('second_factor_challenges')
    .select(['id', 'parent_id', 'person_id', 'first_step'])
    .where('token_hash', '=', hashToken(challenge))
    .where('used_at', 'is', null)
    .where('expires_at', '>', toDbTime(ctx.clock.now()))
    .executeTakeFirst();
  if (!row) throw challengeExpired();
  return row;
}

/**
 * Spends the challenge (one statement, so two parallel second steps cannot both win) and opens the
 * session.
 */
export async function completeChallenge(
  ctx: RequestContext,
  row: ChallengeRow,
  secondStep: string,
): Promise<{ adminId: string; token: string }> {
  const spent = await ctx.db
    .updateTable('second_factor_challenges')
    .set({ used_at: toDbTime(ctx.clock.now()) })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw challengeExpired();
  const token = await createSession(ctx, row.parent_id, row.person_id);
  await recordSecurityEvent(ctx, row.parent_id, 'login', `${row.first_step} and ${secondStep}`);
  return { adminId: row.parent_id, token };
}

// ---------------------------------------------------------------------------
// Authenticator app

export function newTotpSecret(): string {
  // 20 random bytes (160 bits, RFC 4226's recommendation) as base32
  return generateSecret({ length: 20 });
}

export function otpauthUrl(appName: string, account: string, secret: string): string {
  return generateURI({ issuer: appName, label: account, secret });
}

const SIX_DIGITS = /^\d{6}$/;

/** The code's time step when `code` is the person's current code (±1 step), else null. */
export async function totpTimeStep(
  secret: string,
  code: string,
  now: Date,
): Promise<number | null> {
  const token = code.replace(/\s/g, '');
  if (!SIX_DIGITS.test(token)) return null;
  try {
    const result = await verify({
      secret,
      token,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: TOTP_PERIOD_SECONDS,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/**
 * What became of a code: accepted now; a right code that was already accepted (a double submit
 * whose twin won, a code typed twice in its 30 seconds), which is not a guess and spends no
 * wrong-code budget (issue 19); or wrong.
 */
export type CodeOutcome = 'accepted' | 'alreadyUsed' | 'wrong';

/**
 * Accepts the person's current authenticator code once: the code's time step must be newer than
 * the last accepted one, and recording it is a single conditional update (parallel replays lose).
 */
export async function acceptTotpCode(
  ctx: RequestContext,
  personId: string,
  code: string,
  { confirmedOnly }: { confirmedOnly: boolean },
): Promise<CodeOutcome> {
  const factor = await ctx.db
    .selectFrom('totp_factors')
    .select(['secret_encrypted', 'confirmed_at'])
    .where('person_id', '=', personId)
    .executeTakeFirst();
  if (!factor || (confirmedOnly && factor.confirmed_at === null)) return 'wrong';
  const secret = ctx.services.tokens.decrypt(factor.secret_encrypted);
  const step = await totpTimeStep(secret, code, ctx.clock.now());
  if (step === null) return 'wrong';
  const recorded = await ctx.db
    .updateTable('totp_factors')
    .set({ last_time_step: step, updated_at: toDbTime(ctx.clock.now()) })
    .where('person_id', '=', personId)
    .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', step)]))
    .executeTakeFirst();
  return Number(recorded.numUpdatedRows) === 1 ? 'accepted' : 'alreadyUsed';
}

// ---------------------------------------------------------------------------
// Recovery codes

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "k7p2-9xq4-m3td": 12 characters (about 59 bits) in three groups. */
export function newRecoveryCode(): string {
  const chars = Array.from(
    { length: 12 },
    () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
  );
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((g) => g.join('')).join('-');
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Replaces the person's recovery codes with 10 new ones; returns them (shown once). */
export async function replaceRecoveryCodes(ctx: RequestContext, person: Person): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const now = toDbTime(ctx.clock.now());
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('person_id', '=', person.personId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        codes.map((code) => ({
          id: newToken(),
          parent_id: person.parentId,
          person_id: person.personId,
          code_hash: ctx.services.tokens.hmac(normaliseRecoveryCode(code)),
          used_at: null,
          created_at: now,
        })),
      )
      .execute();
  });
  return codes;
}

/**
 * The recovery codes of a person's first second factor: a passkey, like the authenticator app,
 * turns on the second sign-in step, and a person whose only factor is a lost passkey must still
 * have a way in. Answers 10 new codes (shown once) when the person has no unused one; undefined
 * when they still have codes, which stay as they are.
 */
export async function recoveryCodesIfNone(
  ctx: RequestContext,
  person: Person,
): Promise<string[] | undefined> {
  const left = await ctx.db
    .selectFrom('recovery_codes')
    .select('id')
    .where('person_id', '=', person.personId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (left) return undefined;
  return replaceRecoveryCodes(ctx, person);
}

/** Spends one unused recovery code of the person (a single conditional update). */
export async function spendRecoveryCode(
  ctx: RequestContext,
  personId: string,
  code: string,
): Promise<CodeOutcome> {
  const normalised = normaliseRecoveryCode(code);
  if (normalised.length !== 12) return 'wrong';
  const codeHash = ctx.services.tokens.hmac(normalised);
  const spent = await ctx.db
    .updateTable('recovery_codes')
    .set({ used_at: toDbTime(ctx.clock.now()) })
    .where('person_id', '=', personId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) === 1) return 'accepted';
  const used = await ctx.db
    .selectFrom('recovery_codes')
    .select('id')
    .where('person_id', '=', personId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return used ? 'alreadyUsed' : 'wrong';
}

// ---------------------------------------------------------------------------
// Failure budgets

/** Takes one wrong-code attempt from the person's budget (and the challenge's, when given). */
export async function reserveCodeAttempt(
  ctx: RequestContext,
  personId: string,
  challengeId?: string,
) {
  const { secondFactorFailuresPerChallenge, secondFactorFailuresPerPerson } = RATE_LIMITS;
  const reservations: Reservation[] = [];
  if (challengeId) {
    reservations.push(
      await ctx.services.rateLimit.reserve(
        `2fa-failures:challenge:${challengeId}`,
        secondFactorFailuresPerChallenge.limit,
        secondFactorFailuresPerChallenge.windowSeconds,
      ),
    );
  }
  try {
    reservations.push(
      await ctx.services.rateLimit.reserve(
        `2fa-failures:person:${personId}`,
        secondFactorFailuresPerPerson.limit,
        secondFactorFailuresPerPerson.windowSeconds,
      ),
    );
  } catch (error) {
    // the person's budget is spent: this attempt did not use the challenge's
    await Promise.all(reservations.map((r) => r.refund()));
    throw error;
  }
  return {
    async refund() {
      await Promise.all(reservations.map((r) => r.refund()));
    },
  };
}

/** A right code that was already accepted (CodeOutcome `alreadyUsed`): no budget was spent. */
export const codeAlreadyUsed = () =>
  unauthorized(
    '2fa7d3ba',
    'Second-factor code already used',
    "That code was just used. Wait for your authenticator app's next code and try again, or use a recovery code you haven't used yet.",
  );

export const wrongCode = () =>
  unauthorized(
    '2fa7d3b9',
    'Wrong second-factor code',
    "That code didn't work. Check your authenticator app and try again, or use a recovery code.",
  );
