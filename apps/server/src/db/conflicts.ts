import type { Db } from './database.ts';

// Errors a database raises when two requests race for the same rows, named the same on both
// dialects. The router re-runs an operation that hit one (so the loser gets the answer the
// sequential path gives: "already exists", "not found", or an idempotent success) and maps what
// is left to a 400 or 404, never a 500.

export type Conflict =
  /** a unique or primary-key constraint: another request inserted the same row first */
  | 'duplicate'
  /** a foreign key: a row this write refers to was deleted meanwhile (or is being inserted) */
  | 'vanished'
  /** PostgreSQL gave up on a lock order (deadlock) or a serializable transaction */
  | 'retry';

interface DbError {
  code?: unknown;
}

const POSTGRES: Record<string, Conflict> = {
  '23505': 'duplicate', // unique_violation
  '23503': 'vanished', // foreign_key_violation
  '40001': 'retry', // serialization_failure
  '40P01': 'retry', // deadlock_detected
};

const SQLITE: Record<string, Conflict> = {
  SQLITE_CONSTRAINT_UNIQUE: 'duplicate',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'duplicate',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'vanished',
  SQLITE_BUSY: 'retry',
};

export function conflictOf(error: unknown): Conflict | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as DbError).code;
  if (typeof code !== 'string') return undefined;
  return POSTGRES[code] ?? SQLITE[code];
}

/** Attempts of a unit of work whose writes lost a race. */
export const RACE_ATTEMPTS = 3;

/**
 * Runs `work` again when it lost a race (so it sees the winner's committed rows), at most
 * RACE_ATTEMPTS times; `onLost` turns the last conflict into the caller's error.
 */
export async function retryLostRaces<T>(
  work: () => Promise<T>,
  onLost: (conflict: Conflict, attempt: number) => Error | undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const conflict = conflictOf(error);
      if (!conflict) throw error;
      const final = onLost(conflict, attempt);
      if (attempt >= RACE_ATTEMPTS) throw final ?? error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * Takes the row lock of a child inside a transaction, so read-then-write sequences on what hangs
 * off it (its keychain assignments) run one after another on PostgreSQL, as they do on SQLite.
 * A no-op update, because SQLite has no SELECT … FOR UPDATE.
 */
export async function lockChildRow(trx: Db, childId: string): Promise<void> {
  await trx
    .updateTable('children')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', childId)
    .execute();
}
