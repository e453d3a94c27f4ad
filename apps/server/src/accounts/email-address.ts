import { isValidEmailForServer, normaliseEmail } from '@keyward/domain/email';
import { badRequest } from '../pairql/errors.ts';

/** Lowercased, validated email (server-behaviour §2.3); invalid → 400. */
export function validEmail(raw: string): string {
  const email = normaliseEmail(raw);
  if (!isValidEmailForServer(email)) {
    throw badRequest(
      '3b8e1f6a',
      `email: Invalid email address "${raw.slice(0, 100)}"`,
      'Please enter a valid email address.',
    );
  }
  return email;
}
