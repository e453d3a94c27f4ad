import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { type Reachability, SERVER_UNREACHABLE_MESSAGE } from '../lib/server-reachability';

/**
 * Says when the dashboard cannot reach our server (issue 20). A browser that is really offline
 * keeps the spec's network message, shown where a read or a save failed.
 */
export function ReachabilityBanner({ reachability }: { reachability: Reachability }) {
  if (reachability !== 'serverUnreachable') return null;
  return (
    <div
      role="status"
      className="sticky top-0 z-20 mb-4 flex items-center gap-2 rounded-lg bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 ring-1 ring-amber-200"
    >
      <ExclamationTriangleIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
      {SERVER_UNREACHABLE_MESSAGE}
    </div>
  );
}
