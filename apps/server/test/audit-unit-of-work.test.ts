import { describe, expect, test } from 'vitest';
import { exemptFromAudit, UnitOfWork } from '../src/audit/unit-of-work.ts';
import type { Db } from '../src/db/database.ts';
import { toDbBool, toDbTime } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import { createTestServer } from './harness.ts';

// The guard behind "an audit entry is written in the same transaction as the change"
// (src/audit/unit-of-work.ts), on its own: the audit-log tests drive it through every operation.

const server = await createTestServer();
const parent = await server.signUpVerifiedParent();

/** An entry writer that notes what it saw instead of writing to audit_log. */
function recorder() {
  const seen: { before: unknown; after: unknown; output: unknown }[] = [];
  const writer = {
    snapshot: async (db: Db) => (await keychainNames(db)).join(','),
    async write(db: Db, before: unknown, output: unknown) {
      seen.push({ before, after: (await keychainNames(db)).join(','), output });
    },
  };
  // biome-ignore lint/suspicious/noExplicitAny: snapshots are strings in this test
  return { seen, writer: writer as any };
}

async function keychainNames(db: Db) {
  const rows = await db
    .selectFrom('keychains')
    .select('name')
    .where('parent_id', '=', parent.adminId)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

function insertKeychain(db: Db, name: string) {
  const now = toDbTime(server.clock.now());
  return db
    .insertInto('keychains')
    .values({
      id: newToken(),
      parent_id: parent.adminId,
      name,
      description: null,
      warning: null,
      is_public: toDbBool(false),
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('an audited operation writes in one transaction with its entry', () => {
  test('the entry sees the state before and after, and the transaction answer', async () => {
    const { seen, writer } = recorder();
    const unit = new UnitOfWork(server.db, 'Test', writer);
    const answer = await unit.db.transaction().execute(async (trx) => {
      await insertKeychain(trx, 'A');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(unit.committed).toBe(true);
    expect(seen).toEqual([{ before: '', after: 'A', output: 'done' }]);
  });

  test('a failure inside rolls back the change and writes no entry', async () => {
    const { seen, writer } = recorder();
    const unit = new UnitOfWork(server.db, 'Test', writer);
    await expect(
      unit.db.transaction().execute(async (trx) => {
        await insertKeychain(trx, 'B');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(unit.committed).toBe(false);
    expect(seen).toEqual([]);
    expect(await keychainNames(server.db)).toEqual(['A']);
  });

  test('a write outside the transaction is refused, and remembered if swallowed', async () => {
    const unit = new UnitOfWork(server.db, 'Test', recorder().writer);
    await expect(insertKeychain(unit.db, 'C')).rejects.toThrow(/Test: a write outside/);
    expect(unit.violation).toMatch(/Test: a write outside/);
    expect(await keychainNames(server.db)).toEqual(['A']);
    // reads outside are fine
    expect(await keychainNames(new UnitOfWork(server.db, 'Test', recorder().writer).db)).toEqual([
      'A',
    ]);
  });

  test('a query on ctx.db while the transaction is open is refused (it would wait forever on SQLite)', async () => {
    const unit = new UnitOfWork(server.db, 'Test', recorder().writer);
    await expect(unit.db.transaction().execute(async () => keychainNames(unit.db))).rejects.toThrow(
      /while its transaction is open/,
    );
  });

  test('one transaction per operation; helpers that open their own join it', async () => {
    const { seen, writer } = recorder();
    const unit = new UnitOfWork(server.db, 'Test', writer);
    await unit.db.transaction().execute(async (trx) => {
      await trx.transaction().execute((inner) => insertKeychain(inner, 'D'));
    });
    expect(seen).toEqual([{ before: 'A', after: 'A,D', output: undefined }]);
    await expect(unit.db.transaction().execute((trx) => insertKeychain(trx, 'E'))).rejects.toThrow(
      /a second ctx.db.transaction/,
    );
    expect(await keychainNames(server.db)).toEqual(['A', 'D']);
  });

  test('exemptFromAudit reaches the database behind the guard', async () => {
    const unit = new UnitOfWork(server.db, 'Test', recorder().writer);
    await insertKeychain(exemptFromAudit(unit.db), 'F');
    expect(unit.violation).toBeUndefined();
    expect(await keychainNames(server.db)).toEqual(['A', 'D', 'F']);
    expect(exemptFromAudit(server.db)).toBe(server.db);
  });
});
