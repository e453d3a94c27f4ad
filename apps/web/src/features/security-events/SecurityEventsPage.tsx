import type { SecurityEvent } from '@keyward/contract/shared';
import { formatIpLocation } from '@keyward/domain/security-events';
import { timeAgo } from '@keyward/domain/wording';
import {
  ChevronDownIcon,
  ComputerDesktopIcon,
  MapPinIcon,
  ShieldCheckIcon,
  UserIcon,
} from '@heroicons/react/24/outline';
import { useId, useState } from 'react';
import { Badge } from '../../components/ui/Badge';
import { ChildText } from '../../components/ui/ChildText';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { cx } from '../../components/ui/cx';
import { errorMessage } from '../../lib/errors';
import { useSecurityEvents } from './api';

function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function EventEntry({ event, now }: { event: SecurityEvent; now: Date }) {
  const [isExpanded, setIsExpanded] = useState(false);
  const explanationId = useId();
  const location = event.case === 'admin' ? formatIpLocation(event.location) : undefined;
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        {event.case === 'admin' ? (
          <Badge tone="brand">Admin</Badge>
        ) : (
          <Badge tone="warning">Child</Badge>
        )}
        <div className="min-w-0 flex-1 basis-56">
          <h2 className="font-semibold text-slate-900">{event.event}</h2>
          {event.detail && (
            <p className="mt-0.5 text-sm text-slate-700">
              {/* a child event's detail is what the Mac sent (issue 19) */}
              <ChildText text={event.detail} />
            </p>
          )}
        </div>
        <time
          dateTime={event.createdAt}
          title={formatDateTime(event.createdAt)}
          className="shrink-0 text-sm text-slate-500"
        >
          {timeAgo(event.createdAt, now)}
        </time>
      </div>
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
        {event.case === 'child' ? (
          <>
            <span className="inline-flex items-center gap-1">
              <UserIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
              {event.childName}
            </span>
            <span className="inline-flex items-center gap-1">
              <ComputerDesktopIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
              <ChildText text={event.deviceName} />
            </span>
          </>
        ) : (
          <>
            {event.ipAddress && (
              <span className="font-mono text-xs leading-5">IP {event.ipAddress}</span>
            )}
            <span className="inline-flex items-center gap-1">
              <MapPinIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
              {location ?? 'Location unknown'}
            </span>
          </>
        )}
      </div>
      <button
        type="button"
        aria-expanded={isExpanded}
        aria-controls={explanationId}
        onClick={() => setIsExpanded((expanded) => !expanded)}
        className="mt-3 inline-flex items-center gap-1 rounded text-sm font-semibold text-violet-700 hover:underline focus-visible:outline-2 focus-visible:outline-violet-500"
      >
        What does this mean?
        <ChevronDownIcon
          className={cx('h-4 w-4 transition-transform', isExpanded && 'rotate-180')}
          aria-hidden="true"
        />
      </button>
      <p
        id={explanationId}
        hidden={!isExpanded}
        className="mt-2 rounded-lg bg-violet-50 p-3 text-sm text-slate-700"
      >
        {event.explanation}
      </p>
    </li>
  );
}

/** /security-events: the spec's 14-day security feed. */
export default function SecurityEventsPage({ now = new Date() }: { now?: Date }) {
  const events = useSecurityEvents();
  return (
    <div className="max-w-3xl">
      <PageHeading
        title="Security events"
        description="What happened on your account and on your children's computers in the last 14 days."
      />
      {events.isPending ? (
        <Spinner className="h-8 w-8" label="Loading..." />
      ) : events.isError ? (
        events.error.type === 'loggedOut' ? null : (
          <FullPageStatus status="failure" title="Error" message={errorMessage(events.error)} />
        )
      ) : events.data.length === 0 ? (
        <EmptyState
          icon={<ShieldCheckIcon className="h-10 w-10" aria-hidden="true" />}
          title="No security events"
          description="Nothing has happened on your account or your children's computers in the last 14 days."
        />
      ) : (
        <>
          <ul className="space-y-3">
            {events.data.map((event) => (
              <EventEntry key={event.id} event={event} now={now} />
            ))}
          </ul>
          <p className="mt-6 text-xs text-slate-500">
            Locations are estimated from IP addresses on our server.{' '}
            <a
              href="https://db-ip.com"
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-violet-700 underline"
            >
              IP location by DB-IP
            </a>{' '}
            (CC BY 4.0).
          </p>
        </>
      )}
    </div>
  );
}
