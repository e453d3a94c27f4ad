import { timeAgo } from '@keyward/domain/wording';
import { GlobeAltIcon, PencilSquareIcon, SignalIcon, TrashIcon } from '@heroicons/react/24/outline';
import { Link } from 'react-router';
import { LinkButton } from '../../components/ui/Button';
import { ComputerIcon } from '../../components/ui/ComputerIcon';
import { cx } from '../../components/ui/cx';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { IosDeviceIcon } from '../ios-devices/DeviceIcon';
import { DEVICE_KIND_WORDS, type DeviceGroup } from './devices';
import { CANNOT_COUNT_WORDS } from '../screen-time/screen-time';

/** The device's picture: a Mac by its model family, an iPhone or iPad by its type, a browser's globe, a DNS device's signal. */
export function DeviceIcon({ group, className }: { group: DeviceGroup; className?: string }) {
  const first = group.entries[0];
  switch (group.kind) {
    case 'mac':
      return <ComputerIcon family={first?.modelFamily ?? 'unknown'} className={className} />;
    case 'ios':
      return <IosDeviceIcon deviceType={group.model} className={className} />;
    case 'browser':
      return (
        <GlobeAltIcon className={cx('shrink-0 text-violet-600', className)} aria-hidden="true" />
      );
    case 'dns':
      return (
        <SignalIcon className={cx('shrink-0 text-violet-600', className)} aria-hidden="true" />
      );
  }
}

/** A Mac by its name; an iPhone or iPad by whose it is ("Lily's iPad") where children are shown. */
export function deviceTitle(group: DeviceGroup, showChildren = true): string {
  const only = group.entries.length === 1 ? group.entries[0] : undefined;
  return group.kind === 'ios' && only && showChildren
    ? `${only.childName}'s ${group.name}`
    : group.name;
}

/**
 * One device of any kind: its name, who uses it and their live status (a Mac reports its filter
 * state; an iOS device only when it last fetched its rules), the requests waiting on it, and a
 * link to its page. `showChildren` is off on a child's own page.
 */
export function DeviceCard({
  group,
  now,
  showChildren = true,
  headingLevel = 2,
  onDeleteConnection,
}: {
  group: DeviceGroup;
  now: Date;
  showChildren?: boolean;
  headingLevel?: 2 | 3;
  /** on a child's page: the child's connection to this device can be deleted from its card */
  onDeleteConnection?: () => void;
}) {
  const titleId = `device-${group.path.replaceAll('/', '-')}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start gap-4">
        <DeviceIcon group={group} className="h-10 w-10" />
        <div className="min-w-0 flex-1">
          <Heading id={titleId} className="text-base font-semibold break-words text-slate-900">
            {deviceTitle(group, showChildren)}
          </Heading>
          {group.name !== group.model && (
            <p className="truncate text-sm text-slate-500">{group.model}</p>
          )}
        </div>
        {group.pendingRequests > 0 && (
          <Link
            to="/inbox"
            className="shrink-0 rounded-full bg-fuchsia-100 px-2.5 py-0.5 text-xs font-semibold text-fuchsia-800 hover:bg-fuchsia-200"
          >
            {group.pendingRequests} waiting
          </Link>
        )}
      </div>
      <dl className="mt-4 flex-1 space-y-2 text-sm">
        {group.entries.map((entry) => (
          <div key={entry.id} className="flex items-center justify-between gap-3">
            <dt className="truncate text-slate-500">{showChildren ? entry.childName : 'Status'}</dt>
            <dd className="shrink-0">
              {entry.status ? (
                <StatusBadge status={entry.status} />
              ) : (
                <span className="text-slate-700">
                  {entry.lastSeenAt
                    ? `Last contact ${timeAgo(entry.lastSeenAt, now)}`
                    : 'Connected'}
                </span>
              )}
            </dd>
          </div>
        ))}
        {group.kind === 'ios' && group.entries[0]?.osVersion && (
          <div className="flex items-center justify-between gap-3">
            <dt className="text-slate-500">iOS version</dt>
            <dd className="font-medium text-slate-900">{group.entries[0].osVersion}</dd>
          </div>
        )}
      </dl>
      {/* issue 34: only Keyward for Chrome counts screen time */}
      {CANNOT_COUNT_WORDS[group.kind] && (
        <p className="mt-3 text-xs text-slate-500">{CANNOT_COUNT_WORDS[group.kind]}</p>
      )}
      <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-3">
        <LinkButton to={group.path} variant="secondary" size="sm">
          <PencilSquareIcon className="h-4 w-4" aria-hidden="true" />
          {DEVICE_KIND_WORDS[group.kind].action}
        </LinkButton>
        {onDeleteConnection && (
          <button
            type="button"
            onClick={onDeleteConnection}
            aria-label={`Delete connection to ${deviceTitle(group, showChildren)}`}
            title="Delete connection"
            className="rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-violet-500"
          >
            <TrashIcon className="h-5 w-5" aria-hidden="true" />
          </button>
        )}
      </div>
    </article>
  );
}
