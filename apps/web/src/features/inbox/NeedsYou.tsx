import type { InboxItem } from '@keyward/contract/shared';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { displayableChildText } from '@keyward/domain/child-text';
import { timeAgo } from '@keyward/domain/wording';
import { CheckCircleIcon, LockOpenIcon, PauseCircleIcon } from '@heroicons/react/24/outline';
import { useEffect, useId, useReducer } from 'react';
import { Link } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ChildText } from '../../components/ui/ChildText';
import { DEVICE_KIND_ICONS } from '../devices/kind-icons';
import { SuspensionDecisionForm } from '../suspension/SuspensionDecisionForm';
import {
  groupByChild,
  type InboxMore,
  inboxPreview,
  inboxViewReducer,
  initialInboxView,
  notListedOf,
  notListedText,
  waitingItems,
} from './inbox';

type NeedsYouProps = {
  items: readonly InboxItem[];
  /** per child, the waiting requests the server counted but did not list (issue 31) */
  more?: InboxMore;
  now: Date;
  /** show at most this many (home), with 'And N more' and a link to the inbox page */
  limit?: number;
  /** nothing at all while nothing waits and nothing was decided here (home) */
  hideWhenEmpty?: boolean;
  /** h1 on the inbox page, h2 in a page's section */
  headingLevel?: 1 | 2;
  title?: string;
  description?: string;
  /** off where every request is one child's (the child's page): no heading per child */
  showChildNames?: boolean;
};

/**
 * Issue 20: "Needs you", every request waiting for the parent from every device, newest first and
 * grouped by child. Suspension requests are decided right here; an unlock request opens its review.
 */
export function NeedsYou({
  items,
  more = [],
  now,
  limit,
  hideWhenEmpty = false,
  headingLevel = 2,
  title = 'Needs you',
  description,
  showChildNames = true,
}: NeedsYouProps) {
  const [view, dispatch] = useReducer(inboxViewReducer, initialInboxView);
  const headingId = useId();
  const ids = items.map((item) => item.id).join(',');
  useEffect(() => dispatch({ type: 'inboxLoaded', ids: ids === '' ? [] : ids.split(',') }), [ids]);

  const waiting = waitingItems(items, view);
  if (waiting.length === 0 && hideWhenEmpty && !view.hasDecided) return null;
  const { shown, numMore: notShownHere } =
    limit === undefined ? { shown: waiting, numMore: 0 } : inboxPreview(waiting, limit);
  const notListed = more.reduce((sum, entry) => sum + entry.count, 0);
  const numWaiting = waiting.length + notListed;
  // the home page counts everything it leaves out; the full lists say it per child
  const numMore = limit === undefined ? 0 : notShownHere + notListed;
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  return (
    <Card>
      <section aria-labelledby={headingId}>
        <div className="flex items-center justify-between gap-3">
          <Heading
            id={headingId}
            className={
              headingLevel === 1
                ? 'text-2xl font-bold tracking-tight text-slate-900'
                : 'text-lg font-semibold text-slate-900'
            }
          >
            {title}
            {numWaiting > 0 && (
              <span className="ml-2 inline-flex min-w-6 items-center justify-center rounded-full bg-fuchsia-700 px-2 py-0.5 align-middle text-xs font-bold text-white">
                {numWaiting}
              </span>
            )}
          </Heading>
          {limit !== undefined && waiting.length > 0 && (
            <Link to="/inbox" className="text-sm font-semibold text-violet-700 hover:underline">
              View all
            </Link>
          )}
        </div>
        {description && <p className="mt-1 text-sm text-slate-500">{description}</p>}
        {waiting.length === 0 ? (
          <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600">
            <CheckCircleIcon className="h-5 w-5 text-green-600" aria-hidden="true" />
            {view.hasDecided
              ? 'All answered! Nothing else is waiting for you.'
              : 'All caught up! No requests are waiting for you.'}
          </p>
        ) : (
          <div className="mt-4 space-y-5">
            {groupByChild(shown).map((group) => (
              <div key={group.childId}>
                {showChildNames && (
                  <h3 className="text-sm font-semibold text-slate-700">
                    <Link to={`/children/${group.childId}`} className="hover:underline">
                      {group.childName}
                    </Link>
                  </h3>
                )}
                <ul className="mt-2 space-y-2">
                  {group.items.map((item) => (
                    <li key={item.id}>
                      <InboxRow
                        item={item}
                        now={now}
                        isOpen={view.openId === item.id}
                        onOpen={() => dispatch({ type: 'decideOpened', id: item.id })}
                        onClose={() => dispatch({ type: 'decideClosed' })}
                        onDecided={() => dispatch({ type: 'decided', id: item.id })}
                      />
                    </li>
                  ))}
                </ul>
                {limit === undefined && notListedOf(more, group.childId) > 0 && (
                  <p className="mt-2 text-sm text-slate-500">
                    And {notListedText(more, group.childId)} more from {group.childName}.{' '}
                    <Link
                      to={`/children/${group.childId}/unlock-requests`}
                      className="font-semibold text-violet-700 hover:underline"
                    >
                      See all of {group.childName}'s requests
                    </Link>
                  </p>
                )}
              </div>
            ))}
            {numMore > 0 && (
              <p className="text-sm text-slate-500">
                And {numMore} more.{' '}
                <Link to="/inbox" className="font-semibold text-violet-700 hover:underline">
                  See everything that needs you
                </Link>
              </p>
            )}
          </div>
        )}
      </section>
    </Card>
  );
}

function InboxRow({
  item,
  now,
  isOpen,
  onOpen,
  onClose,
  onDecided,
}: {
  item: InboxItem;
  now: Date;
  isOpen: boolean;
  onOpen: () => void;
  onClose: () => void;
  onDecided: () => void;
}) {
  const DeviceIcon = DEVICE_KIND_ICONS[item.device.kind];
  const KindIcon = item.case === 'suspension' ? PauseCircleIcon : LockOpenIcon;
  // the address, app, device name and comment come from the child's device (issue 19)
  const headline =
    item.case === 'suspension'
      ? `Wants the filter off for ${suspensionDurationLabel(item.requestedDurationInSeconds)}`
      : `Asks to unlock ${displayableChildText(item.target)}`;
  return (
    <article
      aria-label={`${item.childName}: ${headline}`}
      className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <KindIcon className="hidden h-6 w-6 shrink-0 text-violet-600 sm:block" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <p className="font-medium text-slate-900">
            {item.case === 'suspension' ? (
              headline
            ) : (
              <>
                Asks to unlock <ChildText text={item.target} />
              </>
            )}
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
            <span className="inline-flex items-center gap-1">
              <DeviceIcon className="h-3.5 w-3.5" aria-hidden="true" />
              <ChildText text={item.device.name} />
            </span>
            <span aria-hidden="true">·</span>
            <time dateTime={item.createdAt}>{timeAgo(item.createdAt, now)}</time>
            {item.case === 'unlock' && item.appName && (
              <>
                <span aria-hidden="true">·</span>
                <ChildText text={item.appName} />
              </>
            )}
          </p>
          {item.requestComment && (
            <p className="mt-1 text-sm text-slate-700 italic">
              <ChildText text={`“${item.requestComment}”`} />
            </p>
          )}
        </div>
        <div className="flex shrink-0 gap-2">
          {item.case === 'unlock' ? (
            <LinkButton
              to={`/children/${item.childId}/unlock-requests/${item.id}/review`}
              size="sm"
            >
              Review
            </LinkButton>
          ) : isOpen ? (
            <Button variant="secondary" size="sm" onClick={onClose}>
              Not now
            </Button>
          ) : (
            <Button size="sm" onClick={onOpen}>
              Decide
            </Button>
          )}
        </div>
      </div>
      {item.case === 'suspension' && isOpen && (
        <div className="mt-1 border-t border-slate-200">
          <SuspensionDecisionForm
            request={{
              id: item.id,
              userName: item.childName,
              extraMonitoringOptions: item.extraMonitoringOptions,
            }}
            childId={item.childId}
            onDecided={onDecided}
          />
        </div>
      )}
    </article>
  );
}
