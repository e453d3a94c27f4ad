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
