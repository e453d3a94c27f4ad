import type { SharedKey } from '@keyward/contract/shared';
import { validateSharedKey } from '@keyward/domain/keys';
import { toDbTime } from '../db/values.ts';
import { badRequest } from '../pairql/errors.ts';

/** The address rules of the key wizard (packages/domain), enforced again on the server. */
export function checkSharedKey(key: SharedKey): void {
  const problem = validateSharedKey(key);
  if (problem !== null) throw badRequest('f63227a2', `Invalid key: ${problem}`, problem);
}

/** The `deleted_at` column value of a key: its expiration, which must lie in the future. */
export function expirationColumn(expiration: string | undefined, now: Date): string | null {
  if (expiration === undefined) return null;
  const at = new Date(expiration);
  if (at.getTime() <= now.getTime()) {
    throw badRequest(
      'fcd82edb',
      `Key expiration ${expiration} is not in the future`,
      'The expiration must be in the future.',
    );
  }
  return toDbTime(at);
}
