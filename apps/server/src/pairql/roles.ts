import type { ParentContext } from './context.ts';
import { unauthorized } from './errors.ts';

// Issue 12: what only the account owner may do. One list, checked by the router before any
// resolver runs, so a co-parent gets `unauthorized` ("Only the account owner can do that.").
// A function decides from the parsed input (DeleteEntity_v2 deletes the account only for `parent`).

// biome-ignore lint/suspicious/noExplicitAny: parsed contract input of the operation
type OwnerOnly = true | ((input: any) => boolean);

export const OWNER_ONLY_OPERATIONS: Readonly<Record<string, OwnerOnly>> = {
  // billing
  StripeUrl: true,
  HandleCheckoutSuccess: true,
  HandleCheckoutCancel: true,
  // the account itself
  DeleteEntity_v2: (input: { type: string }) => input.type === 'parent',
  // the family's parents
  InviteParent: true,
  RemoveParent: true,
  // issue 19: the whole family's data in one file (every parent's email, sign-in events and
  // addresses, the audit log, all activity) is the account owner's to take away; a co-parent sees
  // the family in the dashboard while a parent of it, and keeps no copy after removal
  RequestDataExport: true,
  // issue 23: the weekly report goes to the account's address, so only its owner stops it
  SaveWeeklyReport: true,
  GetDataExport: true,
};

export function isOwnerOnly(op: string, input: unknown): boolean {
  if (!Object.hasOwn(OWNER_ONLY_OPERATIONS, op)) return false;
  const rule = OWNER_ONLY_OPERATIONS[op]!;
  return rule === true || rule(input);
}

export function assertRoleMayCall(ctx: ParentContext, op: string, input: unknown): void {
  if (ctx.role !== 'owner' && isOwnerOnly(op, input)) throw onlyTheOwner(op);
}

export const ONLY_THE_OWNER_MESSAGE = 'Only the account owner can do that.';

/** Co-parents calling an owner-only operation (OWNER_ONLY_OPERATIONS says which). */
export function onlyTheOwner(op: string) {
  return unauthorized(
    'c0fa0e12',
    `${op}: only the account owner may call this operation`,
    ONLY_THE_OWNER_MESSAGE,
  );
}

export function assertOwner(ctx: ParentContext, op: string): void {
  if (ctx.role !== 'owner') throw onlyTheOwner(op);
}
