export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Server rule (server-behaviour §2.3): one @, a local part, a domain of 4+ characters with a dot. */
export function isValidEmailForServer(email: string): boolean {
  const parts = email.split('@');
  if (parts.length !== 2) return false;
  const [local, domain] = parts as [string, string];
  return local.length > 0 && domain.length > 3 && domain.includes('.');
}

/** The longest address SMTP carries (RFC 5321); longer ones cannot be ours to store or mail. */
export const MAX_EMAIL_LENGTH = 254;

/** What the server answers to an address it refuses, and what the pages say before asking it. */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address.';

/**
 * The one email rule of server and dashboard: after trimming and lowercasing, at most 254
 * characters and the server rule above. The pages check it first, so 'x@y' gets a field message.
 */
export function isAcceptableEmail(raw: string): boolean {
  const email = normaliseEmail(raw);
  return email.length <= MAX_EMAIL_LENGTH && isValidEmailForServer(email);
}

/** Client check used by the magic-link button and email notification methods: something@something. */
export function looksLikeEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(s.trim());
}

/** Forgot-password check: the email splits into exactly two parts on @. */
export function splitsIntoTwoOnAt(s: string): boolean {
  return s.split('@').length === 2;
}
