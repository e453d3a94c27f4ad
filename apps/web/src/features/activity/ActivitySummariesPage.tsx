import type { PqlError } from '@keyward/contract/errors';
import type { DaySummary } from '@keyward/contract/shared';
import {
  BellAlertIcon,
  CheckCircleIcon,
  ChevronRightIcon,
  FlagIcon,
  InboxIcon,
} from '@heroicons/react/24/outline';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Badge } from '../../components/ui/Badge';
import { LinkButton } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { ActivityInsights } from './ActivityInsights';
import { useChildActivitySummaries, useFamilyActivitySummaries } from './api';
import { ReviewProgress } from './ReviewProgress';
import { activityDayPath, toDaySummaryRows } from './summaries';

/** `/children/:userId/activity` (one child) and `/children/activity` (the whole family). */
export default function ActivitySummariesPage({ now }: { now?: Date }) {
  const { userId } = useParams();
  return userId ? (
    <ChildSummaries childId={userId} now={now ?? new Date()} />
  ) : (
    <FamilySummaries now={now ?? new Date()} />
  );
}

function ChildSummaries({ childId, now }: { childId: string; now: Date }) {
  const summaries = useChildActivitySummaries(childId);
  if (summaries.isPending) return <Spinner className="h-8 w-8" label="Loading activity..." />;
  if (summaries.isError) return <Failure error={summaries.error} />;
  return (
    <SummaryList
      title={`${summaries.data.childName} Activity`}
      days={summaries.data.days}
      childId={childId}
      now={now}
      emptyDescription="No activity has been reported from this child in the past two weeks"
      insights={<ActivityInsights childId={childId} childName={summaries.data.childName} />}
    />
  );
}

function FamilySummaries({ now }: { now: Date }) {
  const summaries = useFamilyActivitySummaries();
  if (summaries.isPending) return <Spinner className="h-8 w-8" label="Loading activity..." />;
  if (summaries.isError) return <Failure error={summaries.error} />;
  return (
    <SummaryList
      title="All Child Activity"
      days={summaries.data}
      now={now}
      emptyDescription="No activity has been reported from your children in the past two weeks"
    />
  );
}

function Failure({ error }: { error: PqlError }) {
  if (error.type === 'loggedOut') return null; // the hook is already redirecting
  return <LoadFailure error={error} backTo="/children" backLabel="Back to children" />;
}

function SummaryList({
  title,
  days,
  childId,
  now,
  emptyDescription,
  insights,
}: {
  title: string;
  days: readonly DaySummary[];
  childId?: string;
  now: Date;
  emptyDescription: string;
  /** Issue 24: the child's week at a glance, above the days. */
  insights?: ReactNode;
}) {
  const rows = toDaySummaryRows(days, now);
  return (
    <>
      <PageHeading title={title} />
      {rows.length > 0 && insights && <div className="mb-6">{insights}</div>}
      {rows.length === 0 ? (
        <EmptyState
          icon={<InboxIcon className="h-12 w-12" aria-hidden="true" />}
          title="No activity to review"
          description={emptyDescription}
          action={
            <LinkButton to="/children" variant="secondary">
              Back to children
            </LinkButton>
          }
        />
      ) : (
        <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          {rows.map((row) => (
            <li key={row.urlDate}>
              <Link
                to={activityDayPath(row.urlDate, childId)}
                className="flex items-center gap-4 px-4 py-4 transition-colors hover:bg-violet-50/60 focus-visible:bg-violet-50 focus-visible:outline-none sm:px-6"
              >
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="font-semibold text-slate-900">{row.label}</h2>
                    {row.isCompleted && (
                      <Badge tone="ok">
                        <CheckCircleIcon className="-ml-0.5 mr-1 h-3.5 w-3.5" aria-hidden="true" />
                        Completed
                      </Badge>
                    )}
                    {row.numFlagged > 0 && (
                      <Badge tone="warning">
                        <FlagIcon className="-ml-0.5 mr-1 h-3.5 w-3.5" aria-hidden="true" />
                        Flagged {row.numFlagged}
                      </Badge>
                    )}
                    {row.numAlerts > 0 && (
                      <Badge tone="error">
                        <BellAlertIcon className="-ml-0.5 mr-1 h-3.5 w-3.5" aria-hidden="true" />
                        Alerts {row.numAlerts}
                      </Badge>
                    )}
                  </div>
                  <ReviewProgress
                    className="mt-2 max-w-md"
                    numReviewed={row.numReviewed}
                    numTotal={row.numTotal}
                  />
                </div>
                <ChevronRightIcon className="h-5 w-5 shrink-0 text-slate-400" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
