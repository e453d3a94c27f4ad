import { isSuspensionRequestExpired } from './suspension-grant.ts';

// Issue 19: the rules that keep a child's device from flooding the parents. A request the device
// already has pending is not stored again, and what one child sends within a grouping window is one
// parent notification.

/** What an unlock request asks for, as stored (blank fields already absent). */
export interface UnlockTarget {
  bundleId: string;
  url: string | null;
  hostname: string | null;
  ipAddress: string | null;
}

/** Two requests with the same key ask for the same thing (host names are case-insensitive). */
export function unlockTargetKey(target: UnlockTarget): string {
  return JSON.stringify([
    target.bundleId,
    target.url,
    target.hostname?.toLowerCase() ?? null,
    target.ipAddress,
  ]);
}

export interface UnlockRequestPlan {
  /** One id per incoming request, in its order (the Mac app expects one per request). */
  ids: string[];
  /** Positions of the incoming requests to store, each under ids[position]. */
  toStore: number[];
}

/**
 * Answers a batch of unlock requests: a request for a target the device has pending gets the
 * pending request's id (the oldest, if there are several), a request repeating an earlier one of the
 * batch gets that one's id, and only the others are stored, each under a new id.
 */
export function planUnlockRequests(
  pending: readonly (UnlockTarget & { id: string })[],
  incoming: readonly UnlockTarget[],
  newId: () => string,
): UnlockRequestPlan {
  const known = new Map<string, string>();
  for (const request of pending) {
    const key = unlockTargetKey(request);
    if (!known.has(key)) known.set(key, request.id);
  }
  const toStore: number[] = [];
  const ids = incoming.map((target, position) => {
    const key = unlockTargetKey(target);
    const id = known.get(key);
    if (id !== undefined) return id;
    const created = newId();
    known.set(key, created);
    toStore.push(position);
    return created;
  });
  return { ids, toStore };
}

/**
 * The device's suspension request a new one is answered with: its newest pending request that has
 * not expired (2 hours), whatever duration it asks for (the parent chooses the duration anyway).
 * Undefined: store the new request.
 */
export function pendingSuspensionToReuse<Row extends { id: string; createdAt: string }>(
  pending: readonly Row[],
  now: Date,
): Row | undefined {
  const live = pending.filter((row) => !isSuspensionRequestExpired(row.createdAt, now));
  return live.reduce<Row | undefined>(
    (newest, row) => (newest === undefined || row.createdAt > newest.createdAt ? row : newest),
    undefined,
  );
}

/** The grouping window an instant falls in: whole multiples of `seconds` since the epoch. */
export function notificationWindow(at: Date, seconds: number): { start: Date; end: Date } {
  const size = seconds * 1000;
  const start = Math.floor(at.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

/**
 * The requests one grouped notification lists: the notifying write's own first, in its order, then
 * the window's others in the order given. Own requests no longer in the window's list (decided
 * meanwhile) are left out.
 */
export function groupedRequestIds(own: readonly string[], inWindow: readonly string[]): string[] {
  const listed = new Set(inWindow);
  const first = own.filter((id) => listed.has(id));
  const firstSet = new Set(first);
  return [...first, ...inWindow.filter((id) => !firstSet.has(id))];
}

// Issue 31 (finding 1): what is stored is budgeted too, not only calls. One call may carry up to
// 1,000 requests, each a row; a device (and a child) may have at most this many unlock requests
// waiting for the parents. A batch that would go past either is refused whole with the contract's
// 429, so the app keeps its requests and sends them again later.

/** Unlock requests one device may have waiting for a decision. */
export const PENDING_UNLOCKS_PER_DEVICE = 500;
/** Unlock requests one child (all its devices) may have waiting for a decision. */
export const PENDING_UNLOCKS_PER_CHILD = 1000;

/** Whether `adding` new pending requests fit next to what the device and its child have waiting. */
export function fitsPendingBudget(
  waiting: { device: number; child: number },
  adding: number,
): boolean {
  if (adding === 0) return true;
  return (
    waiting.device + adding <= PENDING_UNLOCKS_PER_DEVICE &&
    waiting.child + adding <= PENDING_UNLOCKS_PER_CHILD
  );
}

// Issue 31 (finding 1): the reads a dashboard polls (GetInbox, DashboardWidgets) list a page of each
// child's newest pending requests and count the rest, so their size and cost do not grow with what
// a child sent.

/** Pending requests listed per child in a polled read; the rest are counted ("and N more"). */
export const PENDING_SHOWN_PER_CHILD = 25;

/**
 * A device's pending unlock requests are counted up to this many, so a count costs the same
 * however many rows an older flood left (since the stored budget a device holds at most
 * PENDING_UNLOCKS_PER_DEVICE, so every count of what it stored since is exact).
 */
export const PENDING_COUNTED_PER_DEVICE = 1000;

/**
 * Each child's newest `perChild` items (newest first, ties by id) of items already listed newest
 * first per source, with how many of the child's `totals` were left out.
 */
export function newestPerChild<Item extends { childId: string; createdAt: string; id: string }>(
  items: readonly Item[],
  totals: ReadonlyMap<string, number>,
  perChild: number = PENDING_SHOWN_PER_CHILD,
): { shown: Item[]; more: Map<string, number> } {
  const sorted = [...items].sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1,
  );
  const shownOf = new Map<string, number>();
  const shown: Item[] = [];
  for (const item of sorted) {
    const count = shownOf.get(item.childId) ?? 0;
    if (count >= perChild) continue;
    shownOf.set(item.childId, count + 1);
    shown.push(item);
  }
  const more = new Map<string, number>();
  for (const [childId, total] of totals) {
    const left = total - (shownOf.get(childId) ?? 0);
    if (left > 0) more.set(childId, left);
  }
  return { shown, more };
}
