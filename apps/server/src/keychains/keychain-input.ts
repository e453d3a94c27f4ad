import { LIMITS } from '@keyward/contract/constants';
import { badRequest } from '../pairql/errors.ts';

// Input rules shared by SaveKeychain and SaveKey (server-behaviour §10.3). Lengths over the limits
// are already refused by the contract's schemas; these add the trimming rules.

/** Trimmed keychain name of 1 to 100 characters. */
export function keychainName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) {
    throw badRequest('5a299d49', 'Keychain name is blank', 'Please give the keychain a name.');
  }
  if (name.length > LIMITS.name) {
    throw badRequest(
      '14396b9e',
      `Keychain name is longer than ${LIMITS.name} characters`,
      `A keychain name can be at most ${LIMITS.name} characters long.`,
    );
  }
  return name;
}

/** Trimmed optional text; empty after trimming means none (stored as NULL). */
export function optionalText(raw: string | undefined): string | null {
  const text = raw?.trim() ?? '';
  return text === '' ? null : text;
}
