import { useEffect } from 'react';
import { inboxAlertsOf, inboxItemsOf, useInbox } from './api';
import { needsYouCount, titleWithCount } from './inbox';

/** How many requests wait for the parent (0 until known); keeps the tab title's count current. */
export function useInboxCount(): number {
  const inbox = useInbox();
  // issue 32: each child with alerts to look at counts, as in Needs you itself
  const count = needsYouCount(inboxItemsOf(inbox.data)?.length ?? 0, inboxAlertsOf(inbox.data));
  useEffect(() => {
    document.title = titleWithCount(count);
  }, [count]);
  useEffect(
    () => () => {
      document.title = titleWithCount(0);
    },
    [],
  );
  return count;
}
