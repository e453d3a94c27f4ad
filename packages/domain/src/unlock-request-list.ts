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
