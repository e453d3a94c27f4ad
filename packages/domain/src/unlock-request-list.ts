import type { UnlockRequest } from '@keyward/contract/shared';

// Unlock requests as lists show them. Kept apart from unlock-request.ts, whose key prefill needs
// the public-suffix list: the home page and the lists must not download it.

/** What the child asked to reach, in one line: the url, else the domain, IP or app name. */
export function unlockRequestTarget(request: UnlockRequest): string {
  return (
    request.url?.trim() ||
    request.domain?.trim() ||
    request.ipAddress?.trim() ||
    request.appName?.trim() ||
    request.appBundleId?.trim() ||
    'Unknown'
  );
}

/** Pending requests first, then the decided ones; newest first within each group. */
export function sortUnlockRequests<T extends Pick<UnlockRequest, 'status' | 'createdAt'>>(
  requests: readonly T[],
): T[] {
  const rank = (request: T) => (request.status === 'pending' ? 0 : 1);
  return [...requests].sort(
    (a, b) => rank(a) - rank(b) || Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
}

// Issue 19 (finding 9): a list of unlock requests is read a page at a time, never all of them. The
// first page holds every pending request (up to a ceiling: they are what the parent acts on) and the
// newest decided ones; each older page continues in the same order (pending first, then decided;
// newest first within each; ties by id) from a cursor naming the last request shown.

/** The first page: pending requests, newest first, up to this many… */
export const FIRST_PAGE_PENDING = 500;
/** …then this many of the newest decided ones (when every pending request fitted). */
export const FIRST_PAGE_DECIDED = 50;
/** Each page after the first (Show older). */
export const OLDER_PAGE_SIZE = 50;

/** Where a page ends in the list's order: the last request shown. */
export interface UnlockRequestCursor {
  isPending: boolean;
  createdAt: string;
  id: string;
}

const CURSOR =
  /^([pd])~(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)~([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The opaque `before` text of the page that follows `request`. */
export function unlockRequestCursor(
  request: Pick<UnlockRequest, 'id' | 'status' | 'createdAt'>,
): string {
  return `${request.status === 'pending' ? 'p' : 'd'}~${request.createdAt}~${request.id}`;
}

/** The cursor in a `before` text, or undefined when it is not one this server made. */
export function parseUnlockRequestCursor(text: string): UnlockRequestCursor | undefined {
  const match = CURSOR.exec(text);
  if (!match || Number.isNaN(Date.parse(match[2]!))) return undefined;
  return { isPending: match[1] === 'p', createdAt: match[2]!, id: match[3]! };
}

/** The requests of several pages as one list, each request once, in the list's order. */
export function mergeUnlockRequestPages<
  T extends Pick<UnlockRequest, 'id' | 'status' | 'createdAt'>,
>(pages: readonly (readonly T[])[]): T[] {
  const byId = new Map<string, T>();
  for (const page of pages) for (const request of page) byId.set(request.id, request);
  return sortUnlockRequests([...byId.values()]);
}
