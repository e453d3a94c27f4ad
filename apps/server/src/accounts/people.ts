import type { Db } from '../db/database.ts';
import { addMs, DAY, toDbTime } from '../db/values.ts';
import type { ParentContext, RequestContext } from '../pairql/context.ts';
import { badRequest, notFound } from '../pairql/errors.ts';
import { verifyPassword } from '../services/passwords.ts';
import { recordSecurityEvent } from '../services/security-events.ts';
import { hashToken, isUuid, newToken } from '../services/tokens.ts';

// The people of a family account (issue 12). The family account is the `parents` row (its id is
// what every ownership check uses); the people who log in to it are its owner (person id = the
// account id) and its co-parents (`co_parents` rows, person id = co_parents.id). An email belongs
// to at most one person anywhere: never to two co-parents, never to a co-parent and an account.

export const INVITATION_LIFETIME_MS = 7 * DAY;

export interface Person {
  /** the family account */
  parentId: string;
  /** the person: = parentId for the owner */
  personId: string;
  role: 'owner' | 'coParent';
  email: string;
}

/** The stored person id of a row (sessions, rules, methods, tokens): null for the owner. */
export function personColumn(person: { parentId: string; personId: string }): string | null {
  return person.personId === person.parentId ? null : person.personId;
}

/**
 * `where` filter of the rows (notification rules and methods) that belong to the person acting:
 * the owner's have no person_id, a co-parent's carry theirs (issue 12).
 */
export function ofPerson(ctx: Pick<ParentContext, 'parentId' | 'personId'>) {
  const person = personColumn(ctx);
  // biome-ignore lint/suspicious/noExplicitAny: used on notifications, notification methods, sessions and one-time tokens
  return (eb: any) =>
    person === null ? eb('person_id', 'is', null) : eb('person_id', '=', person);
}

/** Whether any account or any co-parent (invited or active) already has this (normalised) email. */
export async function emailInUse(db: Db, email: string): Promise<boolean> {
  const owner = await db
    .selectFrom('parents')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (owner) return true;
  const coParent = await db
    .selectFrom('co_parents')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  return coParent !== undefined;
}

/** An active co-parent by email, with what logging in needs. */
export async function findActiveCoParentByEmail(db: Db, email: string) {
  const row = await db
    .selectFrom('co_parents')
    .innerJoin('parents', 'parents.id', 'co_parents.parent_id')
    .select([
      'co_parents.id',
      'co_parents.parent_id',
      'co_parents.email',
      'co_parents.password_hash',
      'parents.subscription_status',
    ])
    .where('co_parents.email', '=', email)
    .where('co_parents.status', '=', 'active')
    .executeTakeFirst();
  if (!row || row.password_hash === null) return undefined;
  if (row.subscription_status === 'pendingEmailVerification') return undefined;
  return { ...row, password_hash: row.password_hash };
}

/** The email of the person acting (owner or co-parent), for the audit log and notifications. */
export async function personEmail(db: Db, parentId: string, personId: string): Promise<string> {
  if (personId === parentId) {
    const owner = await db
      .selectFrom('parents')
      .select('email')
      .where('id', '=', parentId)
      .executeTakeFirst();
    return owner?.email ?? '';
  }
  const coParent = await db
    .selectFrom('co_parents')
    .select('email')
    .where('id', '=', personId)
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  return coParent?.email ?? '';
}

/** Every person of the family: the owner first, then co-parents by email. */
export async function familyPeople(db: Db, parentId: string) {
  const owner = await db
    .selectFrom('parents')
    .select(['id', 'email'])
    .where('id', '=', parentId)
    .executeTakeFirstOrThrow();
  const coParents = await db
    .selectFrom('co_parents')
    .select(['id', 'email', 'status'])
    .where('parent_id', '=', parentId)
    .orderBy('email')
    .execute();
  return [
    { id: owner.id, email: owner.email, role: 'owner' as const, status: 'active' as const },
    ...coParents.map((row) => ({
      id: row.id,
      email: row.email,
      role: 'coParent' as const,
      status: row.status,
    })),
  ];
}

/** Mints a 7-day invitation link token for a co-parent (only its hash is stored). */
export async function mintInvitation(ctx: RequestContext, coParentId: string): Promise<string> {
  const token = newToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('parent_invitations')
    .values({
      id: newToken(),
      co_parent_id: coParentId,
      token_hash: hashToken(token),
      expires_at: toDbTime(addMs(now, INVITATION_LIFETIME_MS)),
      used_at: null,
      created_at: toDbTime(now),
    })
    .execute();
  return token;
}

/** A valid (unused, unexpired) invitation of a still-invited co-parent. */
export async function findValidInvitation(ctx: RequestContext, token: string) {
  if (!isUuid(token)) return undefined;
  return ctx.db
    .selectFrom('parent_invitations')
    .innerJoin('co_parents', 'co_parents.id', 'parent_invitations.co_parent_id')
    .select([
      'parent_invitations.id as invitationId',
      'co_parents.id as coParentId',
      'co_parents.parent_id as parentId',
      'co_parents.email as email',
    ])
    .where('parent_invitations.token_hash', '=', hashToken(token))
    .where('parent_invitations.used_at', 'is', null)
    .where('parent_invitations.expires_at', '>', toDbTime(ctx.clock.now()))
    .where('co_parents.status', '=', 'invited')
    .executeTakeFirst();
}

/** Ends every session of one co-parent at once. */
export async function revokePersonSessions(ctx: RequestContext, personId: string): Promise<void> {
  await ctx.db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: toDbTime(ctx.clock.now()) })
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .execute();
}

export const EMAIL_TAKEN_MESSAGE =
  'This email address already has its own account or is already a parent of a family.';

export function emailTaken() {
  return badRequest(
    'c0fa0e13',
    'email already belongs to an account or a co-parent',
    EMAIL_TAKEN_MESSAGE,
  );
}

/**
 * Login's co-parent branch: checks an active co-parent's email and password and answers the person;
 * Login then signs them in through the second-factor step (accounts/second-factor.ts).
 * `undefined` = no such co-parent (answered as for an unknown email); 'incorrect' = wrong password
 * (recorded as a failed login of the family).
 */
export async function loginCoParent(
  ctx: RequestContext,
  email: string,
  password: string,
): Promise<{ parentId: string; personId: string } | 'incorrect' | undefined> {
  const coParent = await findActiveCoParentByEmail(ctx.db, email);
  if (!coParent) return undefined;
  if (!(await verifyPassword(coParent.password_hash, password))) {
    await recordSecurityEvent(
      ctx,
      coParent.parent_id,
      'loginFailed',
      `co-parent ${email}: incorrect password`,
    );
    return 'incorrect';
  }
  return { parentId: coParent.parent_id, personId: coParent.id };
}

/**
 * Notification rules and methods belong to the person who made them (issue 12): the family's row
 * (already checked by operations/ownership.ts) of ANOTHER person answers exactly like a missing one.
 */
export function mine<Row extends { person_id: string | null }>(
  ctx: Pick<ParentContext, 'parentId' | 'personId'>,
  row: Row,
  entityName: string,
): Row {
  if (row.person_id !== personColumn(ctx)) throw notFound(entityName);
  return row;
}
