import { entityWords, operationWords } from '@keyward/domain/audit-wording';
import type { AuditChange } from '@keyward/contract/shared';
import { personEmail } from '../accounts/people.ts';
import type { Db } from '../db/database.ts';
import { addMs, DAY, fromDbJson, toDbJson, toDbTime } from '../db/values.ts';
import type { ParentContext } from '../pairql/context.ts';
import { isUuid, newToken } from '../services/tokens.ts';
import { AUDITED_OPERATIONS, type AuditDescriptor, type Snapshot } from './operations.ts';
import { type AuditEntryWriter, UnitOfWork } from './unit-of-work.ts';

/** Audit entries are kept for one year (issue 12). */
export const AUDIT_RETENTION_MS = 365 * DAY;
export const AUDIT_PAGE_SIZE = 50;
const MAX_VALUE_LENGTH = 200;

/** The fields whose values differ between two snapshots (absent = null). */
export function changedFields(before: Snapshot | undefined, after: Snapshot | undefined) {
  const names = new Set([
    ...Object.keys(before?.fields ?? {}),
    ...Object.keys(after?.fields ?? {}),
  ]);
  const changes: AuditChange[] = [];
  for (const field of names) {
    const from = clip(before?.fields[field] ?? null);
    const to = clip(after?.fields[field] ?? null);
    if (from !== to) changes.push({ field, before: from, after: to });
  }
  return changes;
}

function clip(value: string | null): string | null {
  if (value === null || value === '') return value === '' ? null : value;
  return value.length > MAX_VALUE_LENGTH ? `${value.slice(0, MAX_VALUE_LENGTH - 1)}…` : value;
}

function changeWords(change: AuditChange): string {
  const isSwitch = (value: string | null) => value === 'on' || value === 'off';
  if (isSwitch(change.before) && isSwitch(change.after)) {
    return `turned ${change.field} ${change.after}`;
  }
  if (change.before === null) return `set ${change.field} to "${change.after}"`;
  if (change.after === null) return `cleared ${change.field} (was "${change.before}")`;
  return `changed ${change.field} from "${change.before}" to "${change.after}"`;
}

/** The entry in words: "dana@example.com turned screenshots on for Sam". */
export function summarise(input: {
  who: string;
  operation: string;
  entityType: string;
  before: Snapshot | undefined;
  after: Snapshot | undefined;
  changes: AuditChange[];
  description: string | undefined;
  fallback?: string;
}): string {
  const { who, entityType, before, after, changes, description } = input;
  const type = entityWords(entityType);
  const label = after?.label ?? before?.label;
  const what = label ? `${type} ${label}` : type;
  if (description) {
    const detail = changes.length > 0 ? `: ${changes.map(changeWords).join(', ')}` : '';
    return `${who} ${description}${detail}`;
  }
  if (!before && after) return `${who} added ${what}`;
  if (before && !after) return `${who} deleted ${what}`;
  if (!before && !after) {
    return `${who} ${input.fallback ?? operationWords(input.operation).toLowerCase()}`;
  }
  if (changes.length === 0) return `${who} saved ${what} without changes`;
  const target = entityType === 'child' ? `for ${label}` : `of ${what}`;
  return `${who} ${changes.map(changeWords).join(', ')} ${target}`;
}

function entityTypeOf(descriptor: AuditDescriptor, input: unknown): string {
  return typeof descriptor.entityType === 'function'
    ? descriptor.entityType(input)
    : descriptor.entityType;
}

/**
 * Runs a dashboard operation and, when it is a mutation, records it in the audit log in the same
 * transaction as the change (audit/unit-of-work.ts): the resolver's `ctx.db.transaction()` reads
 * the entity before, runs the resolver's writes, reads it after and inserts the entry, or none of
 * it happens. A resolver that changes nothing (no transaction) gets its entry on its own. A failed
 * operation records nothing.
 */
export async function runAudited<T>(
  ctx: ParentContext,
  operation: string,
  input: unknown,
  run: (ctx: ParentContext) => Promise<T>,
): Promise<T> {
  const descriptor = Object.hasOwn(AUDITED_OPERATIONS, operation)
    ? AUDITED_OPERATIONS[operation]
    : undefined;
  if (!descriptor) return run(ctx);
  const entry = new PendingEntry(ctx, operation, descriptor, input);
  const unit = new UnitOfWork(ctx.db, operation, entry);
  const output = await run({ ...ctx, db: unit.db });
  // a refused query whose error a helper swallowed (recordSecurityEvent logs and carries on)
  if (unit.violation) throw new Error(unit.violation);
  if (!unit.committed) {
    await ctx.db.transaction().execute(async (trx) => {
      const unchanged = await entry.snapshot(trx, output);
      await entry.write(trx, unchanged, output);
    });
  }
  return output;
}

/** The entry an audited operation writes: its entity read before and after the change. */
class PendingEntry implements AuditEntryWriter {
  constructor(
    private readonly ctx: ParentContext,
    private readonly operation: string,
    private readonly descriptor: AuditDescriptor,
    private readonly input: unknown,
  ) {}

  /** The entity's fields as `db` sees them; `output` is undefined before the change. */
  async snapshot(db: Db, output: unknown): Promise<Snapshot | undefined> {
    const { descriptor, ctx, input } = this;
    if (!descriptor.snapshot || !descriptor.entityId) return undefined;
    const id = descriptor.entityId(input, output);
    if (id === undefined) return undefined;
    return descriptor.snapshot(db, ctx.parentId, id, input);
  }

  async write(db: Db, before: Snapshot | undefined, output: unknown): Promise<void> {
    const { descriptor, ctx, input, operation } = this;
    const after = await this.snapshot(db, output);
    const entityType = entityTypeOf(descriptor, input);
    // the account itself was deleted: its audit log goes with it (cascade), nothing to record
    if (entityType === 'account' && before && !after) return;
    const changes = changedFields(before, after);
    const who = await personEmail(db, ctx.parentId, ctx.personId);
    const rawId = after?.id ?? before?.id ?? descriptor.entityId?.(input, output);
    const entityId = rawId !== undefined && isUuid(rawId) ? rawId.toLowerCase() : null;
    const childId = after?.childId ?? before?.childId ?? descriptor.childId?.(input) ?? null;
    // strictly newer than the family's last entry, so `before` paging never skips a tie
    const latest = await db
      .selectFrom('audit_log')
      .select('created_at')
      .where('parent_id', '=', ctx.parentId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const now = ctx.clock.now();
    const at =
      latest && latest.created_at >= toDbTime(now)
        ? toDbTime(addMs(new Date(latest.created_at), 1))
        : toDbTime(now);
    await db
      .insertInto('audit_log')
      .values({
        id: newToken(),
        parent_id: ctx.parentId,
        person_id: ctx.personId,
        person_email: who,
        operation,
        entity_type: entityType,
        entity_id: entityId,
        child_id: childId,
        summary: summarise({
          who,
          operation,
          entityType,
          before,
          after,
          changes,
          description: descriptor.describe?.(input),
          fallback: descriptor.fallback?.(input),
        }),
        changes: toDbJson(changes),
        created_at: at,
      })
      .execute();
  }
}

/** One page of the family's audit log, newest first (GetAuditLog). */
export async function auditLogPage(
  db: Db,
  parentId: string,
  filters: { before?: string; personId?: string; childId?: string },
) {
  let query = db
    .selectFrom('audit_log')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(AUDIT_PAGE_SIZE + 1);
  if (filters.before) query = query.where('created_at', '<', toDbTime(new Date(filters.before)));
  if (filters.personId) query = query.where('person_id', '=', filters.personId);
  if (filters.childId) query = query.where('child_id', '=', filters.childId);
  const rows = await query.execute();
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  const entries = page.map((row) => ({
    id: row.id,
    at: row.created_at,
    personId: row.person_id,
    personEmail: row.person_email,
    operation: row.operation,
    entityType: row.entity_type,
    ...(row.entity_id ? { entityId: row.entity_id } : {}),
    summary: row.summary,
    changes: fromDbJson<AuditChange[]>(row.changes),
    ...(row.child_id ? { childId: row.child_id } : {}),
  }));
  const last = page.at(-1);
  return rows.length > AUDIT_PAGE_SIZE && last
    ? { entries, nextBefore: last.created_at }
    : { entries };
}

/** Deletes entries older than a year; returns how many. */
export async function pruneAuditLog(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('audit_log')
    .where('created_at', '<', toDbTime(addMs(now, -AUDIT_RETENTION_MS)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
