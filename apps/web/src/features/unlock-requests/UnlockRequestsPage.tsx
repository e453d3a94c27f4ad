import { sortUnlockRequests } from '@keyward/domain/unlock-request-list';
import { InboxIcon } from '@heroicons/react/24/outline';
import { useParams } from 'react-router';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage, errorTitle } from '../../lib/errors';
import { useChildName, useChildUnlockRequests, useUnlockRequests } from './api';
import { UnlockRequestCard } from './UnlockRequestCard';

/** `/unlock-requests` (every child) and `/children/:userId/unlock-requests` (one child). */
export default function UnlockRequestsPage({ now }: { now?: Date }) {
  const { userId } = useParams();
  const isOneChild = userId !== undefined;
  const all = useUnlockRequests({ enabled: !isOneChild });
  const ofChild = useChildUnlockRequests(userId ?? '', { enabled: isOneChild });
  const child = useChildName(userId ?? '', { enabled: isOneChild });
  const requests = isOneChild ? ofChild : all;

  const title =
    isOneChild && child.data ? `${child.data.name}'s unlock requests` : 'Unlock requests';
  if (requests.isPending) return <Spinner className="h-8 w-8" label="Loading unlock requests..." />;
  if (requests.isError) {
    if (requests.error.type === 'loggedOut') return null; // the hook is already redirecting
    return (
      <FullPageStatus
        status="failure"
        title={errorTitle(requests.error)}
        message={errorMessage(requests.error)}
      />
    );
  }

  const sorted = sortUnlockRequests(requests.data);
  const shownAt = now ?? new Date();
  return (
    <>
      <PageHeading
        title={title}
        description="Your children's requests to unlock blocked websites and apps."
      />
      {sorted.length === 0 ? (
        <EmptyState
          icon={<InboxIcon className="h-12 w-12" aria-hidden="true" />}
          title={isOneChild ? 'No unlock requests for this child' : 'No unlock requests'}
          description="When a child asks to unlock a blocked website or app, the request shows up here."
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {sorted.map((request) => (
            <li key={request.id}>
              <UnlockRequestCard request={request} now={shownAt} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
