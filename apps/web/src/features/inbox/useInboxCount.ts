import { useEffect } from 'react';
import { inboxAlertsOf, inboxItemsOf, inboxMoreOf, inboxMoreTimeOf, useInbox } from './api';
import { needsYouCount, titleWithCount, waitingCount } from './inbox';

/** How many requests wait for the parent (0 until known); keeps the tab title's count current. */
export function useInboxCount(): number {
  const inbox = useInbox();
  const items = inboxItemsOf(inbox.data);
  // issue 31: the requests only counted by the server wait too; issue 32: and each child with
  // alerts to look at counts, as in Needs you itself
  const count = needsYouCount(
    // issue 34: and each request for more time
    items ? waitingCount(items, inboxMoreOf(inbox.data)) + inboxMoreTimeOf(inbox.data).length : 0,
    inboxAlertsOf(inbox.data),
  );
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
