import { useEffect } from 'react';
import { inboxItemsOf, useInbox } from './api';
import { titleWithCount } from './inbox';

/** How many requests wait for the parent (0 until known); keeps the tab title's count current. */
export function useInboxCount(): number {
  const inbox = useInbox();
  const count = inboxItemsOf(inbox.data)?.length ?? 0;
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
