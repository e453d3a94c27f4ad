import type { PqlError } from '@keyward/contract/errors';
import type { UnlockRequest } from '@keyward/contract/shared';
import { mergeUnlockRequestPages } from '@keyward/domain/unlock-request-list';

// The unlock-request list (issue 19): the server answers a page at a time (pending requests first,
// then the newest decided ones); "Show older" reads the next page. What the list shows follows
// from the pages read so far and the state of the read of the next one.

export interface UnlockRequestPages {
  pages: readonly { requests: readonly UnlockRequest[]; nextBefore?: string }[];
  /** another page exists (the last page read has a `nextBefore`) */
  hasOlder: boolean;
  isLoadingOlder: boolean;
  /** the last read of an older page failed */
  olderError: PqlError | null;
}

export type OlderRequests =
  | { case: 'none' }
  | { case: 'offered' }
  | { case: 'loading' }
  | { case: 'failed'; error: PqlError };

export interface UnlockRequestList {
  requests: UnlockRequest[];
  older: OlderRequests;
}

export function unlockRequestList(read: UnlockRequestPages): UnlockRequestList {
  const requests = mergeUnlockRequestPages(read.pages.map((page) => page.requests));
  if (read.isLoadingOlder) return { requests, older: { case: 'loading' } };
  if (read.olderError) return { requests, older: { case: 'failed', error: read.olderError } };
  return { requests, older: read.hasOlder ? { case: 'offered' } : { case: 'none' } };
}
