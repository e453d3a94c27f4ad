import type { DashboardInput } from '@keyward/contract/dashboard';
import { LIMITS } from '@keyward/contract/constants';
import type { ActivityFeed, UserActivityItem } from '@keyward/contract/shared';

// The review page of one day: one child's feed, or the family's (one feed per child). Items are
// reviewed (deleted) or flagged in place; the page updates at once and undoes a change the server
// refused. Flagged items cannot be deleted (spec §4 'Activity'). Deleting everything (or every
// unflagged item) asks first with the count, then hides the items for UNDO_DELETE_ALL_MS with an
// Undo; only when that time ends are they deleted on the server (issue 20).

export type EntryStatus = 'shown' | 'deleting' | 'deleted';

export type FeedEntry = {
  item: UserActivityItem;
  childName: string;
  /** Which child's feed it came from (the family feed has one per child). */
  feedIndex: number;
  /** The child's showSuspensionActivity: group and highlight activity during a suspension. */
  showsSuspension: boolean;
  status: EntryStatus;
  /** Where the server listed it (one child after another, each newest first). */
  position: number;
};

export type ActivityFeedState = {
  /**
   * Every loaded entry, in display order: one child after another, each newest first, or with
   * alerts and then flagged items first (issue 24).
   */
  entries: FeedEntry[];
  /** Issue 24: 'Show alerts and flagged first'; on when the day has alerts. */
  isAlertsFirst: boolean;
  /** Items of the day already reviewed before the page opened. */
  numDeletedBefore: number;
  selectedId: string | null;
  phase: 'reviewing' | 'confirmingDeleteAll' | 'deleteAllUndoable' | 'deletingAll' | 'leaving';
  /** The items a confirmed (or to-be-confirmed) delete-all removes. */
  deleteAllIds?: string[];
  /** After a delete-all: go back one level after this many ms. */
  leaveAfterMs?: number;
  error?: string;
};

export type ActivityFeedEvent =
  | { type: 'selectionMoved'; by: 1 | -1 }
  | { type: 'alertsFirstToggled' }
  | { type: 'nextAlertRequested' }
  | { type: 'itemSelected'; id: string }
  | { type: 'flagToggled'; id: string }
  | { type: 'flagFailed'; id: string; message: string }
  | { type: 'deleteRequested'; ids: string[] }
  | { type: 'deleteSucceeded'; ids: string[] }
  | { type: 'deleteFailed'; ids: string[]; message: string }
  | { type: 'deleteAllRequested' }
  | { type: 'deleteAllCancelled' }
  | { type: 'deleteAllConfirmed' }
  | { type: 'deleteAllUndone' }
  | { type: 'undoTimeEnded' }
  | { type: 'deleteAllSucceeded'; ids: string[] }
  | { type: 'deleteAllFailed'; ids: string[]; message: string }
  | { type: 'errorDismissed' };

/** Spec §4: back one level 200 ms after a delete-all, or 2 s when flagged items remain. */
export const LEAVE_AFTER_DELETE_ALL_MS = 200;
export const LEAVE_AFTER_DELETE_ALL_WITH_FLAGGED_MS = 2000;

/** How long a confirmed delete-all can be undone before it reaches the server. */
export const UNDO_DELETE_ALL_MS = 8000;

export const DELETE_FAILED_MESSAGE = 'Failed to delete activity. Please try again.';
export const FLAG_FAILED_MESSAGE = 'Failed to flag activity. Please try again.';

export const hasAlert = (item: UserActivityItem) =>
  item.case === 'keystrokeLine' && item.alert !== undefined;

/**
 * Issue 24: alerts, then other flagged items, then the rest; each child's items stay together.
 * Issue 32: in the family feed, the children whose items rank first come first too (the first card
 * was another child's unflagged line when the alert was the second child's).
 */
function arrange(entries: readonly FeedEntry[], isAlertsFirst: boolean): FeedEntry[] {
  const rank = (entry: FeedEntry) =>
    !isAlertsFirst ? 0 : hasAlert(entry.item) ? 0 : entry.item.flagged ? 1 : 2;
  const feedRank = new Map<number, number>();
  for (const entry of entries) {
    feedRank.set(entry.feedIndex, Math.min(feedRank.get(entry.feedIndex) ?? 2, rank(entry)));
  }
  const rankOfFeed = (entry: FeedEntry) => feedRank.get(entry.feedIndex) ?? 2;
  return [...entries].sort(
    (a, b) =>
      rankOfFeed(a) - rankOfFeed(b) ||
      a.feedIndex - b.feedIndex ||
      rank(a) - rank(b) ||
      a.position - b.position,
  );
}

export function initialActivityFeed(feeds: readonly ActivityFeed[]): ActivityFeedState {
  let position = 0;
  const listed = feeds.flatMap((feed, feedIndex) =>
    feed.items.map(
      (item): FeedEntry => ({
        item,
        childName: feed.userName,
        feedIndex,
        showsSuspension: feed.showSuspensionActivity,
        status: 'shown',
        position: position++,
      }),
    ),
  );
  const isAlertsFirst = listed.some((entry) => hasAlert(entry.item));
  const entries = arrange(listed, isAlertsFirst);
  return {
    entries,
    isAlertsFirst,
    numDeletedBefore: feeds.reduce((sum, feed) => sum + feed.numDeleted, 0),
    selectedId: entries[0]?.item.id ?? null,
    phase: 'reviewing',
  };
}

/** How many shown items have an alert. */
export function numAlertsShown(state: Pick<ActivityFeedState, 'entries'>): number {
  return state.entries.filter((entry) => isShown(entry) && hasAlert(entry.item)).length;
}

/** The next shown alert after the selected item, in display order, wrapping round; else null. */
function nextAlertId(state: ActivityFeedState): string | null {
  const shown = shownEntries(state);
  const from = shown.findIndex((entry) => entry.item.id === state.selectedId);
  for (let step = 1; step <= shown.length; step += 1) {
    const entry = shown[(from + step + shown.length) % shown.length];
    if (entry && hasAlert(entry.item)) return entry.item.id;
  }
  return null;
}

export const isShown = (entry: FeedEntry) => entry.status === 'shown';
export const isDeletable = (entry: FeedEntry) => isShown(entry) && !entry.item.flagged;

export function shownEntries(state: ActivityFeedState): FeedEntry[] {
  return state.entries.filter(isShown);
}

/** The counter: reviewed = deleted (before and on this page), total = reviewed + remaining. */
export function reviewCounts(state: ActivityFeedState): { numReviewed: number; numTotal: number } {
  const numReviewedHere = state.entries.filter((entry) => !isShown(entry)).length;
  const numReviewed = state.numDeletedBefore + numReviewedHere;
  return { numReviewed, numTotal: state.numDeletedBefore + state.entries.length };
}

export function hasFlaggedShown(state: ActivityFeedState): boolean {
  return state.entries.some((entry) => isShown(entry) && entry.item.flagged);
}

/** The ids (display item ids) a delete of these items would really remove: shown and unflagged. */
export function deletableIds(state: ActivityFeedState, ids: readonly string[]): string[] {
  const wanted = new Set(ids);
  return state.entries
    .filter((entry) => wanted.has(entry.item.id) && isDeletable(entry))
    .map((entry) => entry.item.id);
}

export function allDeletableIds(state: ActivityFeedState): string[] {
  return state.entries.filter(isDeletable).map((entry) => entry.item.id);
}

export function selectedEntry(state: ActivityFeedState): FeedEntry | undefined {
  return state.entries.find((entry) => entry.item.id === state.selectedId && isShown(entry));
}

export type DeleteActivityInput = DashboardInput<'DeleteActivityItems_v2'>;

/** One DeleteActivityItems_v2 call, and the display items fully reviewed once it succeeds. */
export type DeleteBatch = { input: DeleteActivityInput; completedIds: string[] };

/**
 * The DeleteActivityItems_v2 calls for these items: every underlying row id (`ids`), at most 1000
 * per call (both arrays together), so a large day is several calls (wire-contract §5.2). An item
 * whose rows span two calls is complete with the call holding its last row.
 */
export function toDeleteBatches(
  items: readonly UserActivityItem[],
  maxIdsPerCall: number = LIMITS.arrayItems,
): DeleteBatch[] {
  const batches: DeleteBatch[] = [];
  const empty = (): DeleteBatch => ({
    input: { keystrokeLineIds: [], screenshotIds: [] },
    completedIds: [],
  });
  let current = empty();
  let size = 0;
  for (const item of items) {
    for (const id of item.ids) {
      if (size === maxIdsPerCall) {
        batches.push(current);
        current = empty();
        size = 0;
      }
      if (item.case === 'screenshot') current.input.screenshotIds.push(id);
      else current.input.keystrokeLineIds.push(id);
      size += 1;
    }
    current.completedIds.push(item.id);
  }
  if (size > 0 || current.completedIds.length > 0) batches.push(current);
  return batches;
}

/** FlagActivityItems bodies for one item: its row ids, at most 1000 per call. */
export function toFlagInputs(
  item: UserActivityItem,
  maxIdsPerCall: number = LIMITS.arrayItems,
): string[][] {
  const calls: string[][] = [];
  for (let start = 0; start < item.ids.length; start += maxIdsPerCall) {
    calls.push(item.ids.slice(start, start + maxIdsPerCall));
  }
  return calls;
}

export function itemsOf(state: ActivityFeedState, ids: readonly string[]): UserActivityItem[] {
  const wanted = new Set(ids);
  return state.entries.filter((entry) => wanted.has(entry.item.id)).map((entry) => entry.item);
}

function withStatus(
  state: ActivityFeedState,
  ids: readonly string[],
  from: EntryStatus,
  to: EntryStatus,
): FeedEntry[] {
  const wanted = new Set(ids);
  return state.entries.map((entry) =>
    wanted.has(entry.item.id) && entry.status === from ? { ...entry, status: to } : entry,
  );
}

/**
 * Keeps the selection on a shown item: the one selected, else the next shown one after where it
 * was, else the last shown one.
 */
function keepSelection(entries: FeedEntry[], selectedId: string | null): string | null {
  const index = entries.findIndex((entry) => entry.item.id === selectedId);
  if (index >= 0 && isShown(entries[index] as FeedEntry)) return selectedId;
  const after = entries.slice(Math.max(index, 0)).find(isShown);
  if (after) return after.item.id;
  return entries.findLast(isShown)?.item.id ?? null;
}

function moveSelection(state: ActivityFeedState, by: 1 | -1): string | null {
  const shown = shownEntries(state);
  if (shown.length === 0) return null;
  const index = shown.findIndex((entry) => entry.item.id === state.selectedId);
  if (index < 0) return shown[0]?.item.id ?? null;
  const next = Math.min(Math.max(index + by, 0), shown.length - 1);
  return shown[next]?.item.id ?? null;
}

function toggleFlag(state: ActivityFeedState, id: string): FeedEntry[] {
  return state.entries.map((entry) =>
    entry.item.id === id
      ? { ...entry, item: { ...entry.item, flagged: !entry.item.flagged } }
      : entry,
  );
}

export function activityFeedReducer(
  state: ActivityFeedState,
  event: ActivityFeedEvent,
): ActivityFeedState {
  switch (event.type) {
    case 'selectionMoved':
      return { ...state, selectedId: moveSelection(state, event.by) };
    case 'alertsFirstToggled': {
      const isAlertsFirst = !state.isAlertsFirst;
      return { ...state, isAlertsFirst, entries: arrange(state.entries, isAlertsFirst) };
    }
    case 'nextAlertRequested': {
      const id = nextAlertId(state);
      return id === null ? state : { ...state, selectedId: id };
    }
    case 'itemSelected': {
      const entry = state.entries.find((candidate) => candidate.item.id === event.id);
      return entry && isShown(entry) ? { ...state, selectedId: event.id } : state;
    }
    case 'flagToggled': {
      if (state.phase !== 'reviewing') return state;
      const entry = state.entries.find((candidate) => candidate.item.id === event.id);
      if (!entry || !isShown(entry)) return state;
      return { ...state, entries: toggleFlag(state, event.id), error: undefined };
    }
    case 'flagFailed':
      return { ...state, entries: toggleFlag(state, event.id), error: event.message };
    case 'deleteRequested': {
      if (state.phase !== 'reviewing') return state;
      const ids = deletableIds(state, event.ids);
      if (ids.length === 0) return state;
      const entries = withStatus(state, ids, 'shown', 'deleting');
      return {
        ...state,
        entries,
        selectedId: keepSelection(entries, state.selectedId),
        error: undefined,
      };
    }
    case 'deleteSucceeded':
      return { ...state, entries: withStatus(state, event.ids, 'deleting', 'deleted') };
    case 'deleteFailed': {
      const entries = withStatus(state, event.ids, 'deleting', 'shown');
      return {
        ...state,
        entries,
        selectedId: keepSelection(entries, state.selectedId),
        error: event.message,
      };
    }
    case 'deleteAllRequested': {
      if (state.phase !== 'reviewing') return state;
      const ids = allDeletableIds(state);
      if (ids.length === 0) return state;
      return { ...state, phase: 'confirmingDeleteAll', deleteAllIds: ids, error: undefined };
    }
    case 'deleteAllCancelled': {
      if (state.phase !== 'confirmingDeleteAll') return state;
      const { deleteAllIds: _, ...rest } = state;
      return { ...rest, phase: 'reviewing' };
    }
    case 'deleteAllConfirmed': {
      if (state.phase !== 'confirmingDeleteAll') return state;
      // only what is still deletable now (a flag may have landed meanwhile)
      const ids = deletableIds(state, state.deleteAllIds ?? []);
      const entries = withStatus(state, ids, 'shown', 'deleting');
      return {
        ...state,
        entries,
        deleteAllIds: ids,
        phase: 'deleteAllUndoable',
        selectedId: keepSelection(entries, state.selectedId),
      };
    }
    case 'deleteAllUndone': {
      if (state.phase !== 'deleteAllUndoable') return state;
      const { deleteAllIds, ...rest } = state;
      const entries = withStatus(state, deleteAllIds ?? [], 'deleting', 'shown');
      return {
        ...rest,
        entries,
        phase: 'reviewing',
        selectedId: keepSelection(entries, state.selectedId),
      };
    }
    case 'undoTimeEnded':
      return state.phase === 'deleteAllUndoable' ? { ...state, phase: 'deletingAll' } : state;
    case 'deleteAllSucceeded': {
      if (state.phase !== 'deletingAll') return state;
      const entries = withStatus(state, event.ids, 'deleting', 'deleted');
      const next = { ...state, entries };
      return {
        ...next,
        phase: 'leaving',
        leaveAfterMs: hasFlaggedShown(next)
          ? LEAVE_AFTER_DELETE_ALL_WITH_FLAGGED_MS
          : LEAVE_AFTER_DELETE_ALL_MS,
      };
    }
    case 'deleteAllFailed': {
      if (state.phase !== 'deletingAll') return state;
      const entries = withStatus(state, event.ids, 'deleting', 'shown');
      return {
        ...state,
        entries,
        phase: 'reviewing',
        selectedId: keepSelection(entries, state.selectedId),
        error: event.message,
      };
    }
    case 'errorDismissed':
      return { ...state, error: undefined };
  }
}
