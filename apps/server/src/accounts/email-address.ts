import { INVALID_EMAIL_MESSAGE, isAcceptableEmail, normaliseEmail } from '@keyward/domain/email';
import { badRequest } from '../pairql/errors.ts';

/** Lowercased, validated email (server-behaviour §2.3, the rule in packages/domain); invalid → 400. */
export function validEmail(raw: string): string {
  if (!isAcceptableEmail(raw)) {
    throw badRequest(
      '3b8e1f6a',
      `email: Invalid email address "${raw.slice(0, 100)}"`,
      INVALID_EMAIL_MESSAGE,
    );
  }
  return normaliseEmail(raw);
}
