import { CATALOGUE_PARENT_ID } from './db/migrations/0003_public_keychains.ts';
import type { Db } from './db/database.ts';
import { addMs, DAY, toDbTime } from './db/values.ts';
import { newToken } from './services/tokens.ts';

// Announcements (server-behaviour §1.2): written by the operator outside the API (`npm run
// announce`), one row per parent so each parent dismisses their own (DeleteEntity_v2
// announcement); a row expires at deleted_at (default 30 days after creation).

export const DEFAULT_ANNOUNCEMENT_DAYS = 30;
/** server-behaviour §10.3: icon 64, announcement URLs 255. */
const ICON_LIMIT = 64;
const URL_LIMIT = 255;
/** `--all` reaches parents whose account is older than this (server-behaviour §1.2). */
export const DEFAULT_MIN_ACCOUNT_AGE_DAYS = 2;

export interface AnnouncementInput {
  html: string;
  icon?: string;
  learnMoreUrl?: string;
  /** Days until it expires. */
  days?: number;
  /** Parents by account email; or every parent (`all`) older than minAccountAgeDays. */
  to: { emails: string[] } | { all: true; minAccountAgeDays?: number };
}

export class AnnouncementError extends Error {}

/** Checks the input; returns the problem in words, or undefined. */
export function announcementProblem(input: AnnouncementInput): string | undefined {
  if (input.html.trim() === '') return 'the announcement text (--html) is empty';
  if (input.icon !== undefined && (input.icon.length === 0 || input.icon.length > ICON_LIMIT))
    return `--icon must hold 1 to ${ICON_LIMIT} characters`;
  if (input.learnMoreUrl !== undefined) {
    if (input.learnMoreUrl.length > URL_LIMIT)
      return `--learn-more must be at most ${URL_LIMIT} characters`;
    if (!/^https?:\/\/[^\s]+$/.test(input.learnMoreUrl))
      return '--learn-more must be an http(s) URL';
  }
  const days = input.days ?? DEFAULT_ANNOUNCEMENT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > 365)
    return '--days must be a whole number of days from 1 to 365';
  if ('emails' in input.to && input.to.emails.length === 0)
    return 'say who gets it: --email <address> (repeatable) or --all';
  return undefined;
}

/** Creates the announcement for each targeted parent; returns the emails it was created for. */
export async function createAnnouncements(
  db: Db,
  now: Date,
  input: AnnouncementInput,
): Promise<string[]> {
  const problem = announcementProblem(input);
  if (problem) throw new AnnouncementError(problem);
  let query = db
    .selectFrom('parents')
    .select(['id', 'email'])
    .where('id', '!=', CATALOGUE_PARENT_ID)
    .where('subscription_status', '!=', 'pendingEmailVerification');
  if ('emails' in input.to) {
    query = query.where(
      'email',
      'in',
      input.to.emails.map((email) => email.trim().toLowerCase()),
    );
  } else {
    const minAge = input.to.minAccountAgeDays ?? DEFAULT_MIN_ACCOUNT_AGE_DAYS;
    query = query.where('created_at', '<=', toDbTime(addMs(now, -minAge * DAY)));
  }
  const parents = await query.orderBy('email').execute();
  if ('emails' in input.to) {
    const found = new Set(parents.map((parent) => parent.email));
    const missing = input.to.emails.filter((email) => !found.has(email.trim().toLowerCase()));
    if (missing.length > 0) throw new AnnouncementError(`no account for ${missing.join(', ')}`);
  }
  if (parents.length === 0) return [];
  const createdAt = toDbTime(now);
  const expiresAt = toDbTime(addMs(now, (input.days ?? DEFAULT_ANNOUNCEMENT_DAYS) * DAY));
  await db
    .insertInto('announcements')
    .values(
      parents.map((parent) => ({
        id: newToken(),
        parent_id: parent.id,
        icon: input.icon ?? null,
        html: input.html.trim(),
        learn_more_url: input.learnMoreUrl ?? null,
        created_at: createdAt,
        deleted_at: expiresAt,
      })),
    )
    .execute();
  return parents.map((parent) => parent.email);
}
