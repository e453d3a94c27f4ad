import type { User } from '@keyward/contract/shared';
import { childStatus } from '@keyward/domain/status';
import { pluralise } from '@keyward/domain/wording';
import { ChevronRightIcon } from '@heroicons/react/24/outline';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { Greeting } from './Greeting';
import { PendingRequestsWidget } from './PendingRequestsWidget';

/** Situation 2, for now: the greeting and each child's status. The widgets come later. */
export function ChildrenOverview({ childList, now }: { childList: User[]; now: Date }) {
  return (
    <div className="space-y-6">
      <Greeting now={now} title="Your family" />
      <PendingRequestsWidget now={now} />
      <Card className="max-w-3xl">
        <div className="flex items-center justify-between">
          <h2 className="text-lg font-semibold text-slate-900">Children</h2>
          <Link to="/children" className="text-sm font-semibold text-violet-700 hover:underline">
            View all
          </Link>
        </div>
        <ul className="mt-4 divide-y divide-slate-100">
          {childList.map((child) => (
            <li key={child.id}>
              <Link
                to="/children"
                className="-mx-2 flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-violet-500"
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900">{child.name}</span>
                  <span className="block text-xs text-slate-500">
                    {pluralise(child.devices.length, 'computer')}
                  </span>
                </span>
                {child.devices.length === 0 ? (
                  <span className="text-sm font-medium text-amber-700">Setup incomplete</span>
                ) : (
                  <StatusBadge status={childStatus(child.devices.map((d) => d.status))} />
                )}
                <ChevronRightIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
