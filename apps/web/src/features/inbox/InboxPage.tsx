import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage } from '../../lib/errors';
import { MoreTimeRequests } from '../screen-time/ScreenTime';
import { inboxMoreOf, inboxMoreTimeOf, useInbox } from './api';
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
    <div className="max-w-3xl space-y-6">
      <NeedsYou
        items={inbox.data.items}
        more={inboxMoreOf(inbox.data)}
        alerts={inbox.data.alerts ?? []}
        now={now ?? new Date()}
        headingLevel={1}
        description="Alerts on what your children typed, then unlock and suspension requests from their computers, iPhones and iPads, newest first. Suspension requests expire after 2 hours."
      />
      {/* issue 34 */}
      <MoreTimeRequests requests={inboxMoreTimeOf(inbox.data)} now={now ?? new Date()} />
    </div>
  );
}
