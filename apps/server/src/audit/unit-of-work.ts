import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Db } from '../db/database.ts';
import type { Snapshot } from './operations.ts';

// Issue 12: an audit entry is "written in the same transaction as the change". An audited
// operation's resolver receives a `ctx.db` on which `transaction()` opens the operation's unit of
// work: the entity is read before, the resolver's writes run, the entity is read after and the
// entry is inserted, and all of it commits or none of it does. So that no write can slip past the
// log, that `ctx.db` refuses writes outside the unit (and any query while the unit is open: on
// SQLite the transaction holds the one connection, so such a query would wait forever). These are
// programming errors: every audited operation runs in the test suite.
//
// Side effects (emails, pushes to Macs, texts) belong after the transaction, so they never announce
// a change that was rolled back.

export interface AuditEntryWriter {
  snapshot(db: Db, output: unknown): Promise<Snapshot | undefined>;
  write(db: Db, before: Snapshot | undefined, output: unknown): Promise<void>;
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/** The database without the audit guard, for `exemptFromAudit`. */
const unguarded = new WeakMap<object, Db>();

export class UnitOfWork {
  /** The `ctx.db` the resolver gets. */
  readonly db: Db;
  committed = false;
  /** The first refused query, kept in case the caller swallowed the error. */
  violation: string | undefined;
  private open = false;

  constructor(
    private readonly root: Db,
    private readonly operation: string,
    private readonly entry: AuditEntryWriter,
  ) {
    this.db = withTransaction(root.withPlugin(new OutsideTheUnit(this)), (work) =>
      this.execute(work),
    );
    unguarded.set(this.db, root);
  }

  /** Refuses a query made on the guarded `ctx.db` that the unit of work would not see. */
  check(kind: string): void {
    if (this.open) {
      this.refuse('a query on ctx.db while its transaction is open; use the transaction');
    }
    if (WRITES.has(kind)) {
      this.refuse(
        'a write outside ctx.db.transaction(); an audited operation writes in one transaction with its audit entry',
      );
    }
  }

  private refuse(problem: string): never {
    this.violation ??= `${this.operation}: ${problem}`;
    throw new Error(this.violation);
  }

  private async execute<R>(work: (trx: Db) => Promise<R>): Promise<R> {
    if (this.open) throw new Error(`${this.operation}: ctx.db.transaction() inside itself`);
    if (this.committed) {
      throw new Error(
        `${this.operation}: a second ctx.db.transaction(); the operation's writes belong in one`,
      );
    }
    this.open = true;
    try {
      const result = await this.root.transaction().execute(async (trx) => {
        const db = joinable(trx);
        const before = await this.entry.snapshot(db, undefined);
        const result = await work(db);
        await this.entry.write(db, before, result);
        return result;
      });
      this.committed = true;
      return result;
    } finally {
      this.open = false;
    }
  }
}

class OutsideTheUnit implements KyselyPlugin {
  constructor(private readonly unit: UnitOfWork) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.unit.check(args.node.kind);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * A transaction on which `transaction()` runs its work in the same transaction, so helpers that
 * open their own (replaceRecoveryCodes, saveChild…) can be called inside a unit of work.
 */
export function joinable(trx: Db): Db {
  const joined: Db = withTransaction(trx, (work) => work(joined));
  return joined;
}

type Work = <R>(work: (trx: Db) => Promise<R>) => Promise<R>;

/** `db` whose `transaction().execute(work)` is `execute(work)`; everything else is `db`'s. */
function withTransaction(db: Db, execute: Work): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') return () => ({ execute });
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The database behind an audited operation's `ctx.db`, for the few writes that must stand even when
 * the operation fails and are not the change it records: spending a one-time code on a wrong
 * attempt, clearing rows that have expired.
 */
export function exemptFromAudit(db: Db): Db {
  return unguarded.get(db) ?? db;
}
