import { MIN_SUSPENSION_SECONDS } from '@keyward/domain/suspension-grant';
import { badRequest } from '../pairql/errors.ts';

// Server-side bounds of requests (server-behaviour §10.3 and the spec's suspension rules).

export { MIN_SUSPENSION_SECONDS };
/** The longest suspension a child may ask for or a parent may grant: one week. */
export const MAX_SUSPENSION_SECONDS = 7 * 24 * 60 * 60;
/** Bundle ids and host names are short; the columns are not meant for essays. */
export const MAX_BUNDLE_ID = 255;
export const MAX_HOSTNAME = 255;

/** A child's device may ask for at most a week (a larger number would overflow the column). */
export function checkRequestedSuspension(seconds: number): void {
  if (seconds > MAX_SUSPENSION_SECONDS) {
    throw badRequest(
      'f4a7c2e9',
      `duration ${seconds} s is over ${MAX_SUSPENSION_SECONDS} s`,
      'A suspension can last at most 7 days. Ask for a shorter time.',
    );
  }
}
