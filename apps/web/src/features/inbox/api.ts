import type {
  InboxAlerts,
  InboxItem,
  InboxOutput,
  MoreTimeInboxItem,
} from '@keyward/contract/shared';
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

/** Issue 32: each child's alerts to look at, once known ([] while loading or when absent). */
export function inboxAlertsOf(data: unknown): InboxAlerts[] {
  const alerts = (data as { alerts?: unknown } | undefined)?.alerts;
  return Array.isArray(alerts) ? (alerts as InboxAlerts[]) : [];
}

/** Issue 34: requests for more screen time today, once known ([] while loading or when absent). */
export function inboxMoreTimeOf(data: unknown): MoreTimeInboxItem[] {
  const moreTime = (data as { moreTime?: unknown } | undefined)?.moreTime;
  return Array.isArray(moreTime) ? (moreTime as MoreTimeInboxItem[]) : [];
}
