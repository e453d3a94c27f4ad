import type { ActivityFeed, UserActivityItem } from '@keyward/contract/shared';
import { pluralise } from '@keyward/domain/wording';
import { BellAlertIcon, CheckCircleIcon, TrashIcon, XMarkIcon } from '@heroicons/react/24/outline';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { ConfirmationModal } from '../../components/ui/ConfirmationModal';
import { EmptyState } from '../../components/ui/EmptyState';
import { Toggle } from '../../components/ui/Toggle';
import {
  type ActivityFeedEvent,
  type ActivityFeedState,
  activityFeedReducer,
  allDeletableIds,
  DELETE_FAILED_MESSAGE,
  deletableIds,
  FLAG_FAILED_MESSAGE,
  hasAlert,
  hasFlaggedShown,
  initialActivityFeed,
  itemsOf,
  numAlertsShown,
  reviewCounts,
  shownEntries,
  toDeleteBatches,
  toFlagInputs,
  UNDO_DELETE_ALL_MS,
} from './activity-feed';
import { useDeleteActivityItems, useFlagActivityItems } from './api';
import { FeedItemCard, feedItemLabel } from './FeedItemCard';
import { buildFeedRows, type FeedRow, rowIndexOf } from './feed-rows';
import { ReviewProgress } from './ReviewProgress';
import { ScreenshotViewer } from './ScreenshotViewer';

type Screenshot = Extract<UserActivityItem, { case: 'screenshot' }>;

type DayFeedProps = {
  feeds: readonly ActivityFeed[];
  /** The summaries page: Back, and where a delete-all returns. */
  backTo: string;
  /** The family feed names the child of each item. */
  isFamily: boolean;
};

/** Keys the page answers to (spec: keyboard review), shown in the legend. */
const NEXT_KEYS = new Set(['j', 'ArrowDown']);
const PREVIOUS_KEYS = new Set(['k', 'ArrowUp']);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.tagName === 'INPUT' ||
    target.tagName === 'TEXTAREA' ||
    target.tagName === 'SELECT'
  );
}

/** 'Screenshot, 9:50 AM, flagged, selected, 2 of 3' for the item j/k moved to. */
function selectionAnnouncement(state: ActivityFeedState): string {
  const shown = shownEntries(state);
  const index = shown.findIndex((entry) => entry.item.id === state.selectedId);
  const entry = shown[index];
  if (!entry) return '';
  const flagged = entry.item.flagged ? ', flagged' : '';
  return `${feedItemLabel(entry.item)}${flagged}, selected, ${index + 1} of ${shown.length}`;
}

/** A first guess of a row's height; rows are measured once drawn. */
function estimateRowHeight(row: FeedRow | undefined, width: number): number {
  if (!row) return 120;
  if (row.type === 'child') return 56;
  if (row.type === 'deletePrevious') return 72;
  const frame = 104 + (row.suspension === 'first' || row.suspension === 'only' ? 36 : 0);
  const item = row.entry.item;
  if (item.case === 'screenshot') {
    const imageWidth = Math.min(Math.max(width - 48, 200), 768);
    return frame + Math.round((imageWidth * item.height) / Math.max(item.width, 1));
  }
  const lines = item.line.split('\n').length;
  return frame + Math.min(lines * 20 + 16, 384);
}

export function DayFeed({ feeds, backTo, isFamily }: DayFeedProps) {
  const [state, dispatch] = useReducer(activityFeedReducer, feeds, initialActivityFeed);
  // The latest state, updated as each event is sent: two quick key presses see each other.
  const latest = useRef<ActivityFeedState>(state);
  const send = useCallback((event: ActivityFeedEvent) => {
    latest.current = activityFeedReducer(latest.current, event);
    dispatch(event);
  }, []);

  const deleteItems = useDeleteActivityItems();
  const flagItems = useFlagActivityItems();
  const navigate = useNavigate();
  const [openScreenshot, setOpenScreenshot] = useState<Screenshot | null>(null);
  // What j/k selected, read out by screen readers (the selection itself is only a ring).
  const [announcement, setAnnouncement] = useState('');

  const rows = useMemo(
    () =>
      buildFeedRows(state.entries, {
        showsChildNames: isFamily,
        isAlertsFirst: state.isAlertsFirst,
      }),
    [state.entries, isFamily, state.isAlertsFirst],
  );
  // Counted once per change of the items, not on every render.
  const { entries, numDeletedBefore } = state;
  const { counts, numShown, numDeletable, hasFlagged, numAlerts, hasPinned } = useMemo(() => {
    const items: ActivityFeedState = {
      entries,
      isAlertsFirst: false,
      numDeletedBefore,
      selectedId: null,
      phase: 'reviewing',
    };
    return {
      counts: reviewCounts(items),
      numShown: shownEntries(items).length,
      numDeletable: allDeletableIds(items).length,
      hasFlagged: hasFlaggedShown(items),
      numAlerts: numAlertsShown(items),
      hasPinned: entries.some((entry) => hasAlert(entry.item) || entry.item.flagged),
    };
  }, [entries, numDeletedBefore]);
  const toggleAlertsFirst = useCallback(() => send({ type: 'alertsFirstToggled' }), [send]);
  const goToNextAlert = useCallback(() => {
    send({ type: 'nextAlertRequested' });
    setAnnouncement(selectionAnnouncement(latest.current));
  }, [send]);

  const runDeletes = useCallback(
    async (ids: string[], isAll: boolean) => {
      const items = itemsOf(latest.current, ids);
      const remaining = new Set(ids);
      try {
        for (const batch of toDeleteBatches(items)) {
          await deleteItems.mutateAsync(batch.input);
          send({ type: 'deleteSucceeded', ids: batch.completedIds });
          for (const id of batch.completedIds) remaining.delete(id);
        }
        if (isAll) send({ type: 'deleteAllSucceeded', ids: [] });
      } catch {
        const left = [...remaining];
        send(
          isAll
            ? { type: 'deleteAllFailed', ids: left, message: DELETE_FAILED_MESSAGE }
            : { type: 'deleteFailed', ids: left, message: DELETE_FAILED_MESSAGE },
        );
      }
    },
    [deleteItems.mutateAsync, send],
  );

  const deleteSome = useCallback(
    (ids: readonly string[]) => {
      const toDelete = deletableIds(latest.current, ids);
      if (toDelete.length === 0 || latest.current.phase !== 'reviewing') return;
      send({ type: 'deleteRequested', ids: toDelete });
      void runDeletes(toDelete, false);
    },
    [runDeletes, send],
  );

  // Delete all / unflagged: asked with the count, then undoable until the toast ends (issue 20).
  const deleteAll = useCallback(() => send({ type: 'deleteAllRequested' }), [send]);
  const confirmDeleteAll = useCallback(() => send({ type: 'deleteAllConfirmed' }), [send]);
  const cancelDeleteAll = useCallback(() => send({ type: 'deleteAllCancelled' }), [send]);
  const undoDeleteAll = useCallback(() => send({ type: 'deleteAllUndone' }), [send]);

  useEffect(() => {
    if (state.phase !== 'deleteAllUndoable') return;
    const timer = setTimeout(() => {
      send({ type: 'undoTimeEnded' });
      void runDeletes(latest.current.deleteAllIds ?? [], true);
    }, UNDO_DELETE_ALL_MS);
    return () => clearTimeout(timer);
  }, [state.phase, send, runDeletes]);

  // Leaving the page while the Undo shows keeps the parent's decision: the delete is sent.
  const runDeletesOnLeave = useRef(runDeletes);
  runDeletesOnLeave.current = runDeletes;
  useEffect(
    () => () => {
      const { phase, deleteAllIds } = latest.current;
      if (phase === 'deleteAllUndoable') void runDeletesOnLeave.current(deleteAllIds ?? [], true);
    },
    [],
  );

  const toggleFlag = useCallback(
    async (id: string) => {
      const before = latest.current;
      send({ type: 'flagToggled', id });
      if (latest.current === before) return;
      const entry = before.entries.find((candidate) => candidate.item.id === id);
      if (!entry) return;
      try {
        for (const ids of toFlagInputs(entry.item)) await flagItems.mutateAsync(ids);
      } catch {
        send({ type: 'flagFailed', id, message: FLAG_FAILED_MESSAGE });
      }
    },
    [flagItems.mutateAsync, send],
  );

  const select = useCallback((id: string) => send({ type: 'itemSelected', id }), [send]);
  const deleteOne = useCallback((id: string) => deleteSome([id]), [deleteSome]);
  const flagOne = useCallback((id: string) => void toggleFlag(id), [toggleFlag]);

  // Keyboard review: j/k or the arrow keys move, f flags, d deletes the selected item.
  const isViewerOpen = openScreenshot !== null;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (isViewerOpen || event.defaultPrevented) return;
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const selectedId = latest.current.selectedId;
      if (NEXT_KEYS.has(event.key) || PREVIOUS_KEYS.has(event.key)) {
        event.preventDefault();
        send({ type: 'selectionMoved', by: NEXT_KEYS.has(event.key) ? 1 : -1 });
        setAnnouncement(selectionAnnouncement(latest.current));
      } else if (event.key === 'a') {
        event.preventDefault();
        goToNextAlert();
      } else if (event.key === 'f' && selectedId) {
        event.preventDefault();
        void toggleFlag(selectedId);
      } else if (event.key === 'd' && selectedId) {
        event.preventDefault();
        deleteSome([selectedId]);
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isViewerOpen, send, toggleFlag, deleteSome, goToNextAlert]);

  // After a delete-all, back to the summaries (spec §4: 200 ms, or 2 s when flagged items remain).
  useEffect(() => {
    if (state.phase !== 'leaving') return;
    const timer = setTimeout(() => navigate(backTo), state.leaveAfterMs);
    return () => clearTimeout(timer);
  }, [state.phase, state.leaveAfterMs, navigate, backTo]);

  const isDeletingAll = state.phase === 'deletingAll';
  const numToDelete = state.deleteAllIds?.length ?? 0;
  const closeViewer = useCallback(() => setOpenScreenshot(null), []);

  return (
    <>
      <div className="mb-6 flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <ReviewProgress
          className="flex-1 sm:max-w-md"
          numReviewed={counts.numReviewed}
          numTotal={counts.numTotal}
        />
        {numShown > 0 && state.phase !== 'leaving' && (
          <Button
            variant="dangerSecondary"
            onClick={deleteAll}
            isLoading={isDeletingAll}
            disabled={numDeletable === 0 && !isDeletingAll}
            title={hasFlagged ? 'Flagged items are kept' : undefined}
          >
            <TrashIcon className="h-4 w-4" aria-hidden="true" />
            {hasFlagged ? 'Delete unflagged' : 'Delete all'}
          </Button>
        )}
      </div>

      {numShown > 0 && state.phase !== 'leaving' && (hasPinned || state.isAlertsFirst) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <div className="min-w-64 flex-1">
            <Toggle
              label="Show alerts and flagged first"
              isOn={state.isAlertsFirst}
              onChange={toggleAlertsFirst}
            />
          </div>
          {numAlerts > 0 && (
            <Button variant="secondary" size="sm" onClick={goToNextAlert}>
              <BellAlertIcon className="h-4 w-4" aria-hidden="true" />
              Next alert ({numAlerts})
            </Button>
          )}
        </div>
      )}

      {state.error && (
        <div
          role="alert"
          className="mb-4 flex items-start justify-between gap-3 rounded-lg bg-red-50 p-3 text-sm text-red-700"
        >
          <span>{state.error}</span>
          <button
            type="button"
            onClick={() => send({ type: 'errorDismissed' })}
            aria-label="Dismiss"
            className="rounded p-0.5 hover:bg-red-100"
          >
            <XMarkIcon className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      )}

      {state.phase === 'leaving' && (
        <p
          role="status"
          className="mb-4 flex items-center gap-2 rounded-lg bg-green-50 p-3 text-sm font-medium text-green-800"
        >
          <CheckCircleIcon className="h-5 w-5" aria-hidden="true" />
          {hasFlagged
            ? `Done! ${pluralise(numShown, 'flagged item')} kept for 60 days.${numAlerts > 0 ? ` ${pluralise(numAlerts, 'of them is an alert', 'of them are alerts')}.` : ''}`
            : 'All caught up!'}
        </p>
      )}

      {numShown === 0 ? (
        state.phase !== 'leaving' && (
          <EmptyState
            icon={<CheckCircleIcon className="h-12 w-12" aria-hidden="true" />}
            title="All caught up!"
            description="There is nothing left to review for this day."
            action={
              <LinkButton to={backTo} variant="secondary">
                Back to activity
              </LinkButton>
            }
          />
        )
      ) : (
        <>
          <p className="mb-3 hidden text-xs text-slate-500 sm:block">
            <span className="font-medium">Keyboard: </span>
            <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">j</kbd>/
            <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">k</kbd> or{' '}
            <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">↓</kbd>/
            <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">↑</kbd> move ·{' '}
            <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">f</kbd> flag ·{' '}
            <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">d</kbd> delete
            {numAlerts > 0 && (
              <>
                {' '}
                · <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">a</kbd>{' '}
                next alert
              </>
            )}
          </p>
          <FeedList
            rows={rows}
            selectedId={state.selectedId}
            isFamily={isFamily}
            isBusy={isDeletingAll}
            canDelete={state.phase === 'reviewing'}
            layoutKey={`${state.error ?? ''}|${state.phase}`}
            onSelect={select}
            onFlag={flagOne}
            onDelete={deleteOne}
            onDeleteSome={deleteSome}
            onOpenScreenshot={setOpenScreenshot}
          />
        </>
      )}
      <ScreenshotViewer screenshot={openScreenshot} onClose={closeViewer} />
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      <ConfirmationModal
        isOpen={state.phase === 'confirmingDeleteAll'}
        title={hasFlagged ? 'Delete unflagged activity?' : 'Delete all activity?'}
        confirmLabel={`Delete ${pluralise(numToDelete, 'item')}`}
        confirmVariant="danger"
        onConfirm={confirmDeleteAll}
        onCancel={cancelDeleteAll}
      >
        {hasFlagged
          ? `${pluralise(numToDelete, 'unflagged item')} of this day will be deleted. Flagged items are kept for 60 days.`
          : `All ${pluralise(numToDelete, 'item')} of this day will be deleted.`}{' '}
        You can undo for a few seconds.
      </ConfirmationModal>
      {state.phase === 'deleteAllUndoable' && (
        <div
          role="status"
          className="fixed inset-x-4 bottom-4 z-40 mx-auto flex max-w-md items-center justify-between gap-4 rounded-xl bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
        >
          <span>{pluralise(numToDelete, 'item')} deleted.</span>
          <button
            type="button"
            onClick={undoDeleteAll}
            className="rounded-md px-2 py-1 font-semibold text-violet-200 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Undo
          </button>
        </div>
      )}
    </>
  );
}

type FeedListProps = {
  rows: readonly FeedRow[];
  selectedId: string | null;
  isFamily: boolean;
  isBusy: boolean;
  canDelete: boolean;
  /** Changes when something above the list appears or goes, so its position is read again. */
  layoutKey: string;
  onSelect: (id: string) => void;
  onFlag: (id: string) => void;
  onDelete: (id: string) => void;
  onDeleteSome: (ids: readonly string[]) => void;
  onOpenScreenshot: (screenshot: Screenshot) => void;
};

/**
 * The day's rows, drawn only while on screen (a window virtualiser): scrolling re-renders this
 * list and nothing else, and only the few rows in view.
 */
const FeedList = memo(function FeedList({
  rows,
  selectedId,
  isFamily,
  isBusy,
  canDelete,
  layoutKey,
  onSelect,
  onFlag,
  onDelete,
  onDeleteSome,
  onOpenScreenshot,
}: FeedListProps) {
  const list = useRef<HTMLDivElement>(null);
  const [listTop, setListTop] = useState(0);
  const [listWidth, setListWidth] = useState(768);
  // Where the list starts on the page: it moves when a message shows above it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when layoutKey changes
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    setListTop(element.getBoundingClientRect().top + window.scrollY);
    setListWidth(element.clientWidth || 768);
  }, [layoutKey]);

  const estimateSize = useCallback(
    (index: number) => estimateRowHeight(rows[index], listWidth),
    [rows, listWidth],
  );
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize,
    getItemKey,
    overscan: 4,
    scrollMargin: listTop,
    // React 19 warns about flushSync inside rendering; a frame later is smooth enough.
    useFlushSync: false,
    // Scrolling moves the rows by writing their position, and re-renders only when rows come
    // into view or leave it.
    directDomUpdates: true,
  });
  const setListElement = useCallback(
    (node: HTMLDivElement | null) => {
      list.current = node;
      virtualizer.containerRef(node);
    },
    [virtualizer],
  );

  // Keep the selected item in view when it moves.
  const selectedRow = useMemo(() => rowIndexOf(rows, selectedId), [rows, selectedId]);
  const lastScrolledTo = useRef<string | null>(selectedId);
  useEffect(() => {
    if (selectedRow < 0 || lastScrolledTo.current === selectedId) return;
    lastScrolledTo.current = selectedId;
    virtualizer.scrollToIndex(selectedRow, { align: 'auto' });
  }, [selectedRow, selectedId, virtualizer]);

  return (
    <div
      ref={setListElement}
      role="feed"
      aria-busy={isBusy}
      aria-label="Activity"
      className="relative w-full"
    >
      {virtualizer.getVirtualItems().map((virtual) => {
        const row = rows[virtual.index];
        if (!row) return null;
        return (
          <div
            key={virtual.key}
            data-index={virtual.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 w-full"
          >
            {/* issue 32: a feed holds articles only (axe aria-required-children): the child's
                heading and the delete-previous row are each an article of their own */}
            {row.type === 'child' ? (
              <article aria-label={row.childName}>
                <h2 className="pt-4 pb-2 text-lg font-semibold text-slate-900">{row.childName}</h2>
              </article>
            ) : row.type === 'deletePrevious' ? (
              <article
                aria-label={`Delete previous ${pluralise(row.numDeletable, 'item')}`}
                className="flex justify-center py-4"
              >
                <Button
                  variant="dangerSecondary"
                  size="sm"
                  disabled={row.numDeletable === 0 || !canDelete}
                  onClick={() => onDeleteSome(row.ids)}
                >
                  <TrashIcon className="h-4 w-4" aria-hidden="true" />
                  Delete previous {pluralise(row.numDeletable, 'item')}
                </Button>
              </article>
            ) : (
              <FeedItemCard
                item={row.entry.item}
                childName={isFamily ? row.entry.childName : undefined}
                isSelected={row.entry.item.id === selectedId}
                suspension={row.suspension}
                onSelect={onSelect}
                onFlag={onFlag}
                onDelete={onDelete}
                onOpenScreenshot={onOpenScreenshot}
              />
            )}
          </div>
        );
      })}
    </div>
  );
});
