import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage } from '../../lib/errors';
import { inboxMoreOf, useInbox } from './api';
import { NeedsYou } from './NeedsYou';

/** `/inbox`: everything that waits for the parent, from every child and device (issue 20). */
export default function InboxPage({ now }: { now?: Date }) {
  const inbox = useInbox();
  if (inbox.isPending) return <Spinner className="h-8 w-8" label="Loading requests..." />;
  if (inbox.isError) {
    if (inbox.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <FullPageStatus status="failure" title="Error" message={errorMessage(inbox.error)} />;
  }
  return (
    <div className="max-w-3xl">
      <NeedsYou
        items={inbox.data.items}
        more={inboxMoreOf(inbox.data)}
        now={now ?? new Date()}
        headingLevel={1}
        description="Unlock and suspension requests from your children's computers, iPhones and iPads, newest first. Suspension requests expire after 2 hours."
      />
    </div>
  );
}
