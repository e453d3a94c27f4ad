import { isDeepStrictEqual } from 'node:util';
import { fromDbBool, fromDbJson } from '../db/values.ts';
import { ERROR_IDS } from '@keyward/contract/constants';
import { badRequest } from '../pairql/errors.ts';

// Issue 31 (finding 4): a create sent again with the same id (a double click, a retry) is answered
// as done, but only when it asks for what is stored. With other content it used to be answered as
// done too, silently keeping the first; now it is refused with a message saying so, and the
// dashboard reloads the reads the create changes, so it shows what is stored (lib/api/hooks.ts).
// The wire answers stay the reference's.

/** How a stored column compares with what the create asks for. */
export type StoredAs = 'text' | 'number' | 'bool' | 'json';

/** Whether every listed column holds what the create asks for (database values on both sides). */
export function asksForWhatIsStored(
  stored: Record<string, unknown>,
  wanted: Record<string, unknown>,
  columns: Record<string, StoredAs>,
): boolean {
  return Object.entries(columns).every(([column, kind]) => {
    const a = stored[column] ?? null;
    const b = wanted[column] ?? null;
    switch (kind) {
      case 'bool':
        return fromDbBool(a) === fromDbBool(b);
      case 'number':
        return (a === null ? null : Number(a)) === (b === null ? null : Number(b));
      case 'json':
        return isDeepStrictEqual(
          a === null ? null : fromDbJson(a),
          b === null ? null : fromDbJson(b),
        );
      default:
        return a === b;
    }
  });
}

/** The answer to a repeated create that asks for something else than what is stored. */
export function createdWithOtherContent(what: string, id: string) {
  return badRequest(
    ERROR_IDS.createdWithOtherContent,
    `${what} ${id} was already created with other content`,
    `This ${what.toLowerCase()} was already saved with other details. It is listed as it was saved: change it there.`,
  );
}
