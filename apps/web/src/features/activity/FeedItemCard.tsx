import type { UserActivityItem } from '@keyward/contract/shared';
import { displayableChildText } from '@keyward/domain/child-text';
import {
  BellAlertIcon,
  CommandLineIcon,
  FlagIcon,
  PauseCircleIcon,
  TrashIcon,
} from '@heroicons/react/24/outline';
import { alertCategoryLabel } from '@keyward/domain/alert-categories';
import { FlagIcon as FlagSolidIcon } from '@heroicons/react/24/solid';
import { memo } from 'react';
import { ChildText } from '../../components/ui/ChildText';
import { cx } from '../../components/ui/cx';
import { itemTimeLabel } from './activity-dates';
import type { SuspensionPosition } from './feed-rows';
import { imageCrossOrigin } from '../../lib/image-cross-origin';

type FeedItemCardProps = {
  item: UserActivityItem;
  /** Shown in the family feed, where items of several children follow each other. */
  childName?: string;
  isSelected: boolean;
  suspension?: SuspensionPosition;
  onSelect: (id: string) => void;
  onFlag: (id: string) => void;
  onDelete: (id: string) => void;
  onOpenScreenshot: (item: Extract<UserActivityItem, { case: 'screenshot' }>) => void;
};

const suspensionBand: Record<SuspensionPosition, string> = {
  only: 'rounded-2xl border-2 pt-2 pb-2',
  first: 'rounded-t-2xl border-x-2 border-t-2 pt-2 pb-1.5',
  middle: 'border-x-2 py-1.5',
  last: 'rounded-b-2xl border-x-2 border-b-2 pt-1.5 pb-2',
};

/** How an item is named to assistive technology: 'Screenshot, 9:50 AM', 'Safari, 9:40 AM'. */
export function feedItemLabel(item: UserActivityItem): string {
  // the app's name comes from the child's Mac (issue 19: shown as the characters it holds)
  const title = item.case === 'screenshot' ? 'Screenshot' : displayableChildText(item.appName);
  const alert =
    item.case === 'keystrokeLine' && item.alert
      ? `, alert: ${alertCategoryLabel(item.alert.category)}`
      : '';
  return `${title}, ${itemTimeLabel(item.createdAt)}${alert}`;
}

/** One item of a day's feed: a screenshot, or lines typed in one app, with flag and delete. */
export const FeedItemCard = memo(function FeedItemCard({
  item,
  childName,
  isSelected,
  suspension,
  onSelect,
  onFlag,
  onDelete,
  onOpenScreenshot,
}: FeedItemCardProps) {
  const time = itemTimeLabel(item.createdAt);
  // the app's name comes from the child's Mac (issue 19: shown as the characters it holds)
  const title = item.case === 'screenshot' ? 'Screenshot' : displayableChildText(item.appName);
  const startsSuspension = suspension === 'first' || suspension === 'only';
  const alert = item.case === 'keystrokeLine' ? item.alert : undefined;
  return (
    <div
      className={cx(
        suspension && 'border-amber-300 bg-amber-50/70 px-2 sm:px-3',
        suspension ? suspensionBand[suspension] : 'py-1.5',
      )}
    >
      {startsSuspension && (
        <p className="mb-2 flex items-center gap-1.5 px-1 text-sm font-semibold text-amber-800">
          <PauseCircleIcon className="h-5 w-5" aria-hidden="true" />
          During a filter suspension
        </p>
      )}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the page's j/k keys move the selection */}
      <article
        aria-label={feedItemLabel(item)}
        aria-current={isSelected || undefined}
        onClick={() => onSelect(item.id)}
        className={cx(
          'rounded-2xl bg-white p-4 shadow-sm ring-1 transition-shadow sm:p-5',
          isSelected ? 'ring-2 ring-violet-500' : 'ring-slate-200',
          item.flagged && !isSelected && 'ring-amber-400',
        )}
      >
        <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="min-w-0">
            <h2 className="flex items-center gap-2 truncate font-semibold text-slate-900">
              {item.case === 'keystrokeLine' && (
                <CommandLineIcon className="h-5 w-5 shrink-0 text-violet-600" aria-hidden="true" />
              )}
              {item.case === 'keystrokeLine' && (
                <span className="font-normal text-slate-500">Typed in</span>
              )}
              <bdi className="truncate">{title}</bdi>
              {alert && (
                <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800 ring-1 ring-red-600/20 ring-inset">
                  <BellAlertIcon className="h-3.5 w-3.5" aria-hidden="true" />
                  Alert: {alertCategoryLabel(alert.category)}
                </span>
              )}
              {item.flagged && (
                <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-600/20 ring-inset">
                  Flagged
                </span>
              )}
            </h2>
            <p className="mt-0.5 text-sm text-slate-500">
              {childName && <span className="font-medium text-slate-700">{childName} · </span>}
              <time dateTime={item.createdAt}>{time}</time>
            </p>
          </div>
          <div className="flex shrink-0 gap-2">
            <button
              type="button"
              onClick={(event) => {
                event.stopPropagation();
                onFlag(item.id);
              }}
              aria-pressed={item.flagged}
              title={
                alert && item.flagged
                  ? 'Not a concern? Unflag it to report a false alert; it can then be deleted.'
                  : undefined
              }
              className={cx(
                'inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-inset transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-500',
                item.flagged
                  ? 'bg-amber-50 text-amber-800 ring-amber-300 hover:bg-amber-100'
                  : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
              )}
            >
              {item.flagged ? (
                <FlagSolidIcon className="h-4 w-4" aria-hidden="true" />
              ) : (
                <FlagIcon className="h-4 w-4" aria-hidden="true" />
              )}
              {item.flagged ? 'Unflag' : 'Flag'}
            </button>
            <button
              type="button"
              onClick={(event) => {
                event.stopPropagation();
                onDelete(item.id);
              }}
              disabled={item.flagged}
              title={item.flagged ? 'Flagged items are kept. Unflag it to delete it.' : undefined}
              className={cx(
                'inline-flex items-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-red-700 ring-1 ring-red-300 ring-inset transition-colors hover:bg-red-50',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-500',
                'disabled:cursor-not-allowed disabled:opacity-50',
              )}
            >
              <TrashIcon className="h-4 w-4" aria-hidden="true" />
              Delete
            </button>
          </div>
        </header>
        {item.case === 'screenshot' ? (
          <button
            type="button"
            onClick={(event) => {
              event.stopPropagation();
              onSelect(item.id);
              onOpenScreenshot(item);
            }}
            aria-label={`Open the full screenshot of ${time}`}
            className="mt-3 block w-full max-w-3xl cursor-zoom-in overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-500"
          >
            <img
              src={item.url}
              crossOrigin={imageCrossOrigin(item.url)}
              alt={`Screenshot taken ${time}`}
              width={item.width}
              height={item.height}
              loading="lazy"
              decoding="async"
              className="block h-auto w-full"
              style={{ aspectRatio: `${item.width} / ${item.height}` }}
            />
          </button>
        ) : (
          <>
            <pre className="mt-3 max-h-96 overflow-auto rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm whitespace-pre-wrap break-words text-slate-800 ring-1 ring-slate-200">
              <ChildText text={item.line} />
            </pre>
            {alert && alert.words.length > 0 && (
              <p className="mt-2 text-sm text-red-800">
                Matched: {alert.words.map((word) => `"${word}"`).join(', ')}
              </p>
            )}
          </>
        )}
      </article>
    </div>
  );
});
