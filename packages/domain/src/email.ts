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

/** Client check used by the magic-link button and email notification methods: something@something. */
export function looksLikeEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(s.trim());
}

/** Forgot-password check: the email splits into exactly two parts on @. */
export function splitsIntoTwoOnAt(s: string): boolean {
  return s.split('@').length === 2;
}
