import { isValidPhoneNumber } from 'libphonenumber-js';

export const MIN_PHONE_DIGITS = 7;
export const MAX_PHONE_DIGITS = 15;

/** Spec §5 phone normalisation to E.164; null when the digit count is out of range. */
export function normalisePhone(input: string): string | null {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length === 10 && !trimmed.startsWith('+')) return `+1${digits}`;
  if (digits.length < MIN_PHONE_DIGITS || digits.length > MAX_PHONE_DIGITS) return null;
  return `+${digits}`;
}

export function isValidPhone(e164: string): boolean {
  if (!/^\+\d{7,15}$/.test(e164)) return false;
  return isValidPhoneNumber(e164);
}

/** '(xxx) xxx-xxxx' for +1 numbers; any other number is shown as stored. */
export function formatPhone(e164: string): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  if (!match) return e164;
  return `(${match[1]}) ${match[2]}-${match[3]}`;
}

/** The dashboard's display of a stored number (spec §5 Formats): same rule as `formatPhone`. */
export const formatPhoneForDisplay = formatPhone;
