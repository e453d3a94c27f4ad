import type { InboxItem, InboxOutput } from '@keyward/contract/shared';
import { useDashboardQuery } from '../../lib/api/hooks';
import { INBOX_POLL_MS } from './inbox';

/** Every request waiting for the parent; polled, in a background tab too (the tab title counts). */
export const useInbox = () =>
  useDashboardQuery('GetInbox', undefined, {
    refetchInterval: INBOX_POLL_MS,
    refetchIntervalInBackground: true,
  });

/** The waiting items once known (undefined while loading or when the read failed). */
export function inboxItemsOf(data: unknown): InboxItem[] | undefined {
  const items = (data as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? (items as InboxItem[]) : undefined;
}

/** Issue 31: per child, the waiting requests the server did not list ("and N more"). */
export function inboxMoreOf(data: unknown): NonNullable<InboxOutput['more']> {
  const more = (data as { more?: unknown } | undefined)?.more;
  return Array.isArray(more) ? (more as NonNullable<InboxOutput['more']>) : [];
}
