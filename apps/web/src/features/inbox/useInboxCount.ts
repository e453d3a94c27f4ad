import { useEffect } from 'react';
import { inboxItemsOf, inboxMoreOf, useInbox } from './api';
import { titleWithCount, waitingCount } from './inbox';

/** How many requests wait for the parent (0 until known); keeps the tab title's count current. */
export function useInboxCount(): number {
  const inbox = useInbox();
  const items = inboxItemsOf(inbox.data);
  // issue 31: the requests only counted by the server wait too
  const count = items ? waitingCount(items, inboxMoreOf(inbox.data)) : 0;
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
