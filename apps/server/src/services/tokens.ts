import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';

// Secrets at rest (server-behaviour §2.1): bearer tokens are random UUID v4 and only
// SHA-256(lowercase token) is stored; 6-digit codes are stored as HMAC-SHA-256(server key, code);
// parent-supplied third-party secrets are AES-256-GCM encrypted.

export { isUuid } from '@keyward/domain/uuid';

/**
 * Issue 31: compares a secret the caller sent (a signature) with the expected one in time that
 * does not depend on where they differ.
 */
export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function newToken(): string {
  return randomUUID();
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token.trim().toLowerCase()).digest('hex');
}

/** A random 6-digit code (100000–999999), as it travels as a JSON number. */
export function newSixDigitCode(): number {
  return randomInt(100_000, 1_000_000);
}

export function createTokenService(keys: { hmacKey: Buffer; encryptionKey: Buffer }) {
  return {
    hmac(value: string | number): string {
      return createHmac('sha256', keys.hmacKey).update(String(value)).digest('hex');
    },
    /** `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
    encrypt(plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keys.encryptionKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(sealed: string): string {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined) {
        throw new Error('Malformed encrypted value');
      }
      const decipher = createDecipheriv(
        'aes-256-gcm',
        keys.encryptionKey,
        Buffer.from(iv, 'base64url'),
      );
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
