import type { DashboardWidgetsOutput } from '@keyward/contract/shared';
import { timeAgo } from '@keyward/domain/wording';
import { ChevronRightIcon } from '@heroicons/react/24/outline';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { ChildText } from '../../components/ui/ChildText';
import { pendingRequestsPreview } from './home-situation';

/** Up to 2 pending unlock requests, 'And N older' and View all; nothing when none are pending. */
export function PendingRequestsWidget({
  requests,
  now,
}: {
  requests: DashboardWidgetsOutput['unlockRequests'];
  now: Date;
}) {
  const { shown, numOlder } = pendingRequestsPreview(requests);
  if (shown.length === 0) return null;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Pending unlock requests</h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {shown.map((request) => (
          <li key={request.id}>
            <Link
              to={`/children/${request.childId}/unlock-requests/${request.id}`}
              className="-mx-2 flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-violet-500"
            >
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-900">
                  {request.childName}{' '}
                  <span className="font-normal text-slate-500">
                    · {timeAgo(request.createdAt, now)}
                  </span>
                </span>
                <span className="block truncate font-mono text-xs text-slate-700">
                  <ChildText text={request.target} />
                </span>
                {request.comment && (
                  <span className="block truncate text-xs text-slate-500 italic">
                    <ChildText text={`“${request.comment}”`} />
                  </span>
                )}
              </span>
              <span className="text-sm font-semibold text-violet-700">Review</span>
              <ChevronRightIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-2 flex items-center justify-between gap-3 text-sm text-slate-500">
        <span>{numOlder > 0 ? `And ${numOlder} older` : ''}</span>
        <Link to="/unlock-requests" className="font-semibold text-violet-700 hover:underline">
          View all
        </Link>
      </p>
    </Card>
  );
}
