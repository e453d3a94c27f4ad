import type { PqlError } from '@keyward/contract/errors';
import type { ActivityFeed, ActivityRange } from '@keyward/contract/shared';
import { ArrowLeftIcon } from '@heroicons/react/24/outline';
import { Link, useParams } from 'react-router';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { Spinner } from '../../components/ui/Spinner';
import { dayLabel, dayRange } from './activity-dates';
import { useChildActivityFeed, useFamilyActivityFeed } from './api';
import { DayFeed } from './DayFeed';
import { activitySummariesPath } from './summaries';

/**
 * `/children/:userId/activity/:urlDate` (one child's day) and `/children/activity/:urlDate` (the
 * combined day of all children): review the day's screenshots and typed lines.
 */
export default function ActivityDayPage({ now }: { now?: Date }) {
  const { userId, urlDate = '' } = useParams();
  const backTo = activitySummariesPath(userId);
  const range = dayRange(urlDate);
  if (!range) {
    return (
      <LoadFailure
        error={{
          isPqlError: true,
          id: 'badActivityDay',
          type: 'notFound',
          entityName: 'Activity day',
          debugMessage: `Malformed day in the URL: ${urlDate}`,
        }}
        backTo={backTo}
        backLabel="Back to activity"
      />
    );
  }
  const label = dayLabel(urlDate, now ?? new Date());
  return userId ? (
    <ChildDay childId={userId} range={range} label={label} backTo={backTo} urlDate={urlDate} />
  ) : (
    <FamilyDay range={range} label={label} backTo={backTo} urlDate={urlDate} />
  );
}

type DayProps = { range: ActivityRange; label: string; backTo: string; urlDate: string };

function ChildDay({ childId, ...props }: DayProps & { childId: string }) {
  const feed = useChildActivityFeed(childId, props.range);
  return (
    <DayView
      {...props}
      query={feed}
      feeds={feed.data ? [feed.data] : undefined}
      subtitle={feed.data ? `${feed.data.userName}'s activity` : undefined}
      isFamily={false}
    />
  );
}

function FamilyDay(props: DayProps) {
  const feed = useFamilyActivityFeed(props.range);
  return (
    <DayView
      {...props}
      query={feed}
      feeds={feed.data}
      subtitle="All children's activity"
      isFamily
    />
  );
}

type FeedQuery = {
  isError: boolean;
  error: PqlError | null;
  isFetchedAfterMount: boolean;
};

function DayView({
  query,
  feeds,
  label,
  subtitle,
  backTo,
  urlDate,
  isFamily,
}: DayProps & {
  query: FeedQuery;
  feeds: readonly ActivityFeed[] | undefined;
  subtitle: string | undefined;
  isFamily: boolean;
}) {
  const header = (
    <div className="mb-6">
      <Link
        to={backTo}
        className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-violet-700 hover:text-violet-900 focus-visible:outline-2 focus-visible:outline-violet-500"
      >
        <ArrowLeftIcon className="h-4 w-4" aria-hidden="true" />
        Back
      </Link>
      <h1 className="mt-3 text-2xl font-bold tracking-tight text-slate-900">{label}</h1>
      {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
    </div>
  );
  if (query.isError && query.error) {
    if (query.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <LoadFailure error={query.error} backTo={backTo} backLabel="Back to activity" />;
  }
  // A feed cached from an earlier visit may hold items reviewed since: wait for a fresh one.
  if (!feeds || !query.isFetchedAfterMount) {
    return (
      <>
        {header}
        <Spinner className="h-8 w-8" label="Loading activity..." />
      </>
    );
  }
  return (
    <>
      {header}
      <DayFeed key={urlDate} feeds={feeds} backTo={backTo} isFamily={isFamily} />
    </>
  );
}
