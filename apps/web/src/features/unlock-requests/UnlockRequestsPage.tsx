import { InboxIcon } from '@heroicons/react/24/outline';
import { useParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage, errorTitle } from '../../lib/errors';
import { useChildName, useUnlockRequestPages } from './api';
import { UnlockRequestCard } from './UnlockRequestCard';
import { type OlderRequests, unlockRequestList } from './unlock-request-list';

/** `/unlock-requests` (every child) and `/children/:userId/unlock-requests` (one child). */
export default function UnlockRequestsPage({ now }: { now?: Date }) {
  const { userId } = useParams();
  const isOneChild = userId !== undefined;
  const requests = useUnlockRequestPages(userId);
  const child = useChildName(userId ?? '', { enabled: isOneChild });

  const title =
    isOneChild && child.data ? `${child.data.name}'s unlock requests` : 'Unlock requests';
  if (requests.isPending) return <Spinner className="h-8 w-8" label="Loading unlock requests..." />;
  if (requests.isError && !requests.isFetchNextPageError) {
    if (requests.error.type === 'loggedOut') return null; // the hook is already redirecting
    return (
      <FullPageStatus
        status="failure"
        title={errorTitle(requests.error)}
        message={errorMessage(requests.error)}
      />
    );
  }

  const list = unlockRequestList({
    pages: requests.data?.pages ?? [],
    hasOlder: requests.hasNextPage,
    isLoadingOlder: requests.isFetchingNextPage,
    olderError: requests.isFetchNextPageError ? requests.error : null,
  });
  const shownAt = now ?? new Date();
  return (
    <>
      <PageHeading
        title={title}
        description="Your children's requests to unlock blocked websites and apps."
      />
      {list.requests.length === 0 ? (
        <EmptyState
          icon={<InboxIcon className="h-12 w-12" aria-hidden="true" />}
          title={isOneChild ? 'No unlock requests for this child' : 'No unlock requests'}
          description="When a child asks to unlock a blocked website or app, the request shows up here."
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {list.requests.map((request) => (
            <li key={request.id}>
              <UnlockRequestCard request={request} now={shownAt} />
            </li>
          ))}
        </ul>
      )}
      <ShowOlder older={list.older} onShowOlder={() => requests.fetchNextPage()} />
    </>
  );
}

function ShowOlder({ older, onShowOlder }: { older: OlderRequests; onShowOlder: () => void }) {
  if (older.case === 'none') return null;
  return (
    <div className="mt-6 flex flex-col items-center gap-2">
      {older.case === 'failed' && (
        <p role="alert" className="text-sm text-red-700">
          The older requests could not be loaded. {errorMessage(older.error)}
        </p>
      )}
      <Button
        variant="secondary"
        size="sm"
        isLoading={older.case === 'loading'}
        onClick={onShowOlder}
      >
        {older.case === 'failed' ? 'Try again' : 'Show older'}
      </Button>
    </div>
  );
}
