import type { DashboardWidgetsOutput } from '@keyward/contract/shared';
import { pluralise, timeAgo } from '@keyward/domain/wording';
import {
  BellAlertIcon,
  BookOpenIcon,
  ChatBubbleLeftRightIcon,
  CheckCircleIcon,
  ChevronRightIcon,
  KeyIcon,
  UserPlusIcon,
} from '@heroicons/react/24/outline';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { Link } from 'react-router';
import { LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { externalLinks } from '../../lib/links';
import { AnnouncementBanner } from './AnnouncementBanner';
import { Greeting } from './Greeting';
import {
  childIdByName,
  devicesOfChild,
  HOME_CHILDREN_COUNT,
  totalUnreviewed,
} from './home-situation';
import { PendingRequestsWidget } from './PendingRequestsWidget';
import { imageCrossOrigin } from '../../lib/image-cross-origin';

const rowLink =
  '-mx-2 flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-violet-500';

function CardHeading({ title, link }: { title: string; link?: { to: string; label: string } }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {link && (
        <Link to={link.to} className="text-sm font-semibold text-violet-700 hover:underline">
          {link.label}
        </Link>
      )}
    </div>
  );
}

function ChildrenCard({
  childList,
  otherDevices,
}: {
  childList: DashboardWidgetsOutput['children'];
  otherDevices: ReadonlyMap<string, number>;
}) {
  const shown = childList.slice(0, HOME_CHILDREN_COUNT);
  const numMore = childList.length - shown.length;
  return (
    <Card>
      <CardHeading title="Children" link={{ to: '/children', label: 'View all' }} />
      <ul className="mt-4 divide-y divide-slate-100">
        {shown.map((child) => (
          <li key={child.id}>
            <Link to={`/children/${child.id}`} className={rowLink}>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-slate-900">{child.name}</span>
                <span className="block text-xs text-slate-500">
                  {devicesWording(child.numDevices, otherDevices.get(child.id) ?? 0)}
                </span>
              </span>
              {devicesOfChild(child, otherDevices) === 0 ? (
                <span className="text-sm font-medium text-amber-700">Setup incomplete</span>
              ) : (
                <StatusBadge status={child.status} />
              )}
              <ChevronRightIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
      {numMore > 0 && (
        <p className="mt-2 text-sm text-slate-500">
          and {numMore} more.{' '}
          <Link to="/children" className="font-semibold text-violet-700 hover:underline">
            See all children
          </Link>
        </p>
      )}
    </Card>
  );
}

/** '1 computer', '1 computer, 1 iPhone or iPad', '2 iPhones or iPads'. */
function devicesWording(numMacs: number, numOthers: number): string {
  if (numOthers === 0) return pluralise(numMacs, 'computer');
  const others = pluralise(numOthers, 'iPhone or iPad', 'iPhones or iPads');
  return numMacs === 0 ? others : `${pluralise(numMacs, 'computer')}, ${others}`;
}

function ActivityCard({
  summaries,
}: {
  summaries: DashboardWidgetsOutput['childActivitySummaries'];
}) {
  const total = totalUnreviewed(summaries);
  return (
    <Card>
      <CardHeading title="Activity" link={{ to: '/children/activity', label: 'Review all' }} />
      <p className="mt-1 text-sm text-slate-500">
        {total === 0
          ? 'All caught up! Nothing is waiting for review.'
          : `${pluralise(total, 'item')} from the past two weeks to review.`}
      </p>
      {summaries.length > 0 && (
        <ul className="mt-3 divide-y divide-slate-100">
          {summaries.map((child) => (
            <li key={child.id}>
              <Link to={`/children/${child.id}/activity`} className={rowLink}>
                <span className="min-w-0 flex-1 truncate font-medium text-slate-900">
                  {child.name}
                </span>
                {child.numUnreviewed === 0 ? (
                  <span className="inline-flex items-center gap-1 text-sm text-green-700">
                    <CheckCircleIcon className="h-4 w-4" aria-hidden="true" />
                    All reviewed
                  </span>
                ) : (
                  <span className="text-sm font-semibold text-violet-700">
                    {child.numUnreviewed} unreviewed
                  </span>
                )}
                <ChevronRightIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function RecentScreenshotsCard({
  screenshots,
  childList,
  now,
}: {
  screenshots: DashboardWidgetsOutput['recentScreenshots'];
  childList: DashboardWidgetsOutput['children'];
  now: Date;
}) {
  if (screenshots.length === 0) return null;
  return (
    <Card className="lg:col-span-2">
      <CardHeading title="Recent screenshots" />
      <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {screenshots.map((shot) => {
          const childId = childIdByName(childList, shot.childName);
          const when = timeAgo(shot.createdAt, now);
          return (
            <li key={shot.id}>
              <Link
                to={childId ? `/children/${childId}/activity` : '/children/activity'}
                className="group block overflow-hidden rounded-xl ring-1 ring-slate-200 hover:ring-violet-300 focus-visible:outline-2 focus-visible:outline-violet-500"
              >
                <img
                  src={shot.url}
                  crossOrigin={imageCrossOrigin(shot.url)}
                  alt={`${shot.childName}'s screen, ${when}`}
                  loading="lazy"
                  className="aspect-video w-full bg-slate-100 object-cover"
                />
                <span className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                  <span className="truncate font-medium text-slate-900">{shot.childName}</span>
                  <span className="shrink-0 text-slate-500">{when}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

function QuickAction({
  icon: ActionIcon,
  children,
  ...target
}: { icon: Icon; children: ReactNode } & ({ to: string } | { href: string })) {
  const classes =
    'flex items-center gap-3 rounded-xl p-3 text-sm font-semibold text-slate-900 ring-1 ring-slate-200 hover:bg-violet-50 hover:ring-violet-300 focus-visible:outline-2 focus-visible:outline-violet-500';
  const content = (
    <>
      <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-violet-100 text-violet-700">
        <ActionIcon className="h-5 w-5" aria-hidden="true" />
      </span>
      {children}
    </>
  );
  return 'to' in target ? (
    <Link to={target.to} className={classes}>
      {content}
    </Link>
  ) : (
    <a href={target.href} target="_blank" rel="noopener noreferrer" className={classes}>
      {content}
    </a>
  );
}

function QuickActionsCard() {
  return (
    <Card>
      <CardHeading title="Quick actions" />
      <div className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <QuickAction icon={UserPlusIcon} to="/children/new">
          Add a child
        </QuickAction>
        <QuickAction icon={KeyIcon} to="/keychains/new">
          Create a keychain
        </QuickAction>
        <QuickAction icon={BookOpenIcon} href={externalLinks.documentation}>
          Documentation
        </QuickAction>
        <QuickAction icon={ChatBubbleLeftRightIcon} href={externalLinks.contactSupport}>
          Contact support
        </QuickAction>
      </div>
    </Card>
  );
}

function FirstNotificationCard() {
  return (
    <Card className="border-l-4 border-fuchsia-500">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <BellAlertIcon className="h-8 w-8 shrink-0 text-fuchsia-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 className="text-lg font-semibold text-slate-900">Create your first notification</h2>
          <p className="mt-1 text-sm text-slate-600">
            Hear about unlock and suspension requests the moment your child sends them, by email,
            text message or Slack.
          </p>
        </div>
        <LinkButton to="/settings" variant="secondary">
          Set up notifications
        </LinkButton>
      </div>
    </Card>
  );
}

/** Situation 2 of the spec: children with computers. */
export function HomeOverview({
  widgets,
  now,
  otherDevices = new Map(),
  needsYou,
}: {
  widgets: DashboardWidgetsOutput;
  now: Date;
  /** per child, its devices other than Macs (issue 20: an iPad-only child is set up) */
  otherDevices?: ReadonlyMap<string, number>;
  /** what waits for the parent, first (issue 20) */
  needsYou?: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <Greeting now={now} title="Your family" />
      {needsYou}
      {widgets.announcement && <AnnouncementBanner announcement={widgets.announcement} />}
      {widgets.numParentNotifications === 0 && <FirstNotificationCard />}
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <ChildrenCard childList={widgets.children} otherDevices={otherDevices} />
        <ActivityCard summaries={widgets.childActivitySummaries} />
        <PendingRequestsWidget requests={widgets.unlockRequests} now={now} />
        <QuickActionsCard />
        <RecentScreenshotsCard
          screenshots={widgets.recentScreenshots}
          childList={widgets.children}
          now={now}
        />
      </div>
    </div>
  );
}
