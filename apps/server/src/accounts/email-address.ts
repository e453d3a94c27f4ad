import { isValidEmailForServer, normaliseEmail } from '@keyward/domain/email';
import { badRequest } from '../pairql/errors.ts';

/** The longest address SMTP carries (RFC 5321); longer ones cannot be ours to store or mail. */
const MAX_EMAIL_LENGTH = 254;

/** Lowercased, validated email (server-behaviour §2.3); invalid → 400. */
export function validEmail(raw: string): string {
  const email = normaliseEmail(raw);
  if (email.length > MAX_EMAIL_LENGTH || !isValidEmailForServer(email)) {
    throw badRequest(
      '3b8e1f6a',
      `email: Invalid email address "${raw.slice(0, 100)}"`,
      'Please enter a valid email address.',
    );
  }
  return email;
}
