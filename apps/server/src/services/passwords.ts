import { hash, verify } from '@node-rs/argon2';

// argon2id is the library's default algorithm (Algorithm.Argon2id is a const enum, which
// isolatedModules cannot import); the stored hash string starts with `$argon2id$`.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against for unknown emails so a Login does the same work either way.
const DECOY_HASH = hash('keyward-decoy-password');

export async function spendPasswordCheck(password: string): Promise<void> {
  await verifyPassword(await DECOY_HASH, password);
}
