import type { ActivityFeed, UserActivityItem } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type ActivityFeedEvent,
  type ActivityFeedState,
  activityFeedReducer,
  allDeletableIds,
  deletableIds,
  initialActivityFeed,
  LEAVE_AFTER_DELETE_ALL_MS,
  LEAVE_AFTER_DELETE_ALL_WITH_FLAGGED_MS,
  reviewCounts,
  shownEntries,
  toDeleteBatches,
  toFlagInputs,
} from './activity-feed';
import { lineItem, screenshotItem } from './test-fixtures';

function run(state: ActivityFeedState, ...events: ActivityFeedEvent[]): ActivityFeedState {
  return events.reduce(activityFeedReducer, state);
}

const feed = (items: UserActivityItem[], overrides: Partial<ActivityFeed> = {}): ActivityFeed => ({
  userName: 'Sam',
  showSuspensionActivity: false,
  numDeleted: 0,
  items,
  ...overrides,
});

// a, b, c newest first; b is flagged
const a = lineItem('a', { createdAt: '2026-11-23T10:03:00.000Z' });
const b = screenshotItem('b', { createdAt: '2026-11-23T10:02:00.000Z', flagged: true });
const c = lineItem('c', { createdAt: '2026-11-23T10:01:00.000Z' });
const fresh = () => initialActivityFeed([feed([a, b, c], { numDeleted: 4 })]);
const shownIds = (state: ActivityFeedState) => shownEntries(state).map((entry) => entry.item.id);

describe('loading', () => {
  test('the first item is selected; counts add the items reviewed before', () => {
    const state = fresh();
    expect(state.selectedId).toBe('a');
    expect(reviewCounts(state)).toEqual({ numReviewed: 4, numTotal: 7 });
    expect(shownIds(state)).toEqual(['a', 'b', 'c']);
  });

  test('the family feed keeps one child after another and sums what was reviewed', () => {
    const state = initialActivityFeed([
      feed([a], { userName: 'Sam', numDeleted: 1 }),
      feed([c], { userName: 'Kim', numDeleted: 2, showSuspensionActivity: true }),
    ]);
    expect(
      state.entries.map((entry) => [entry.childName, entry.feedIndex, entry.showsSuspension]),
    ).toEqual([
      ['Sam', 0, false],
      ['Kim', 1, true],
    ]);
    expect(reviewCounts(state)).toEqual({ numReviewed: 3, numTotal: 5 });
  });

  test('an empty day selects nothing', () => {
    expect(initialActivityFeed([feed([])]).selectedId).toBeNull();
  });
});

describe('selection', () => {
  test.each<[string, ActivityFeedEvent[], string | null]>([
    ['next', [{ type: 'selectionMoved', by: 1 }], 'b'],
    [
      'next twice',
      [
        { type: 'selectionMoved', by: 1 },
        { type: 'selectionMoved', by: 1 },
      ],
      'c',
    ],
    ['stops at the last', Array(5).fill({ type: 'selectionMoved', by: 1 }), 'c'],
    ['stops at the first', [{ type: 'selectionMoved', by: -1 }], 'a'],
    ['a click selects', [{ type: 'itemSelected', id: 'c' }], 'c'],
    ['an unknown id is ignored', [{ type: 'itemSelected', id: 'zzz' }], 'a'],
    [
      'skips deleted items',
      [
        { type: 'flagToggled', id: 'b' },
        { type: 'deleteRequested', ids: ['b'] },
        { type: 'itemSelected', id: 'c' },
        { type: 'selectionMoved', by: -1 },
      ],
      'a',
    ],
  ])('%s', (_name, events, selected) => {
    expect(run(fresh(), ...events).selectedId).toBe(selected);
  });
});

describe('flagging', () => {
  test('toggles at once and undoes a refused flag with a message', () => {
    let state = run(fresh(), { type: 'flagToggled', id: 'a' });
    expect(state.entries[0]?.item.flagged).toBe(true);
    state = run(state, { type: 'flagFailed', id: 'a', message: 'Nope' });
    expect(state.entries[0]?.item.flagged).toBe(false);
    expect(state.error).toBe('Nope');
    expect(run(state, { type: 'errorDismissed' }).error).toBeUndefined();
  });

  test('a flagged item cannot be deleted; unflagged, it can', () => {
    let state = run(fresh(), { type: 'deleteRequested', ids: ['b'] });
    expect(shownIds(state)).toEqual(['a', 'b', 'c']);
    state = run(state, { type: 'flagToggled', id: 'b' }, { type: 'deleteRequested', ids: ['b'] });
    expect(shownIds(state)).toEqual(['a', 'c']);
  });
});

describe('deleting', () => {
  test.each<[string, string[], string[]]>([
    ['one item', ['a'], ['a']],
    ['flagged items are skipped', ['a', 'b', 'c'], ['a', 'c']],
    ['unknown ids are skipped', ['x', 'c'], ['c']],
  ])('deletableIds: %s', (_name, ids, expected) => {
    expect(deletableIds(fresh(), ids)).toEqual(expected);
  });

  test('items vanish at once, count as reviewed, and the selection moves to the next', () => {
    const state = run(fresh(), { type: 'deleteRequested', ids: ['a'] });
    expect(shownIds(state)).toEqual(['b', 'c']);
    expect(state.selectedId).toBe('b');
    expect(reviewCounts(state)).toEqual({ numReviewed: 5, numTotal: 7 });
    const done = run(state, { type: 'deleteSucceeded', ids: ['a'] });
    expect(reviewCounts(done)).toEqual({ numReviewed: 5, numTotal: 7 });
  });

  test('deleting the last item selects the one before it', () => {
    const state = run(
      fresh(),
      { type: 'itemSelected', id: 'c' },
      { type: 'deleteRequested', ids: ['c'] },
    );
    expect(state.selectedId).toBe('b');
  });

  test('a refused delete brings the items back with a message', () => {
    const state = run(
      fresh(),
      { type: 'deleteRequested', ids: ['a', 'c'] },
      { type: 'deleteFailed', ids: ['a', 'c'], message: 'Failed' },
    );
    expect(shownIds(state)).toEqual(['a', 'b', 'c']);
    expect(state.error).toBe('Failed');
    expect(reviewCounts(state).numReviewed).toBe(4);
  });
});

describe('delete all', () => {
  test.each<[string, UserActivityItem[], number, string]>([
    ['nothing flagged: back after 200 ms', [a, c], LEAVE_AFTER_DELETE_ALL_MS, 'All'],
    [
      'flagged items remain: back after 2 s',
      [a, b, c],
      LEAVE_AFTER_DELETE_ALL_WITH_FLAGGED_MS,
      'b',
    ],
  ])('%s', (_name, items, delay, remaining) => {
    let state = initialActivityFeed([feed(items)]);
    const ids = allDeletableIds(state);
    expect(ids).toEqual(['a', 'c']);
    state = run(
      state,
      { type: 'deleteAllRequested' },
      { type: 'deleteAllConfirmed' },
      { type: 'undoTimeEnded' },
    );
    expect(state.phase).toBe('deletingAll');
    // nothing else can start meanwhile
    expect(run(state, { type: 'flagToggled', id: 'b' })).toBe(state);
    expect(run(state, { type: 'deleteRequested', ids: ['a'] })).toBe(state);
    state = run(state, { type: 'deleteSucceeded', ids }, { type: 'deleteAllSucceeded', ids: [] });
    expect(state.phase).toBe('leaving');
    expect(state.leaveAfterMs).toBe(delay);
    expect(shownIds(state).join() || 'All').toBe(remaining);
  });

  test('a refused delete-all keeps what succeeded and brings back the rest', () => {
    const state = run(
      fresh(),
      { type: 'deleteAllRequested' },
      { type: 'deleteAllConfirmed' },
      { type: 'undoTimeEnded' },
      { type: 'deleteSucceeded', ids: ['a'] },
      { type: 'deleteAllFailed', ids: ['c'], message: 'Failed' },
    );
    expect(state.phase).toBe('reviewing');
    expect(shownIds(state)).toEqual(['b', 'c']);
    expect(state.error).toBe('Failed');
  });
});

// issue 20: a delete-all asks with its count, then can be undone until the toast ends
describe('delete all: confirm and undo', () => {
  test('asking hides nothing; Cancel leaves everything as it was', () => {
    const asking = run(fresh(), { type: 'deleteAllRequested' });
    expect(asking.phase).toBe('confirmingDeleteAll');
    expect(asking.deleteAllIds).toEqual(['a', 'c']);
    expect(shownIds(asking)).toEqual(['a', 'b', 'c']);
    const cancelled = run(asking, { type: 'deleteAllCancelled' });
    expect(cancelled.phase).toBe('reviewing');
    expect(cancelled.deleteAllIds).toBeUndefined();
    expect(shownIds(cancelled)).toEqual(['a', 'b', 'c']);
  });

  test('confirmed: hidden at once, Undo brings every item back, nothing was sent', () => {
    const hidden = run(fresh(), { type: 'deleteAllRequested' }, { type: 'deleteAllConfirmed' });
    expect(hidden.phase).toBe('deleteAllUndoable');
    expect(shownIds(hidden)).toEqual(['b']);
    expect(reviewCounts(hidden)).toEqual({ numReviewed: 6, numTotal: 7 });
    // nothing else starts while it can be undone
    expect(run(hidden, { type: 'flagToggled', id: 'b' })).toBe(hidden);
    expect(run(hidden, { type: 'deleteRequested', ids: ['b'] })).toBe(hidden);
    const undone = run(hidden, { type: 'deleteAllUndone' });
    expect(undone.phase).toBe('reviewing');
    expect(shownIds(undone)).toEqual(['a', 'b', 'c']);
    expect(reviewCounts(undone)).toEqual({ numReviewed: 4, numTotal: 7 });
    // the end of the toast after an undo deletes nothing
    expect(run(undone, { type: 'undoTimeEnded' })).toBe(undone);
  });

  test('when the toast ends the delete starts; Undo then does nothing', () => {
    const deleting = run(
      fresh(),
      { type: 'deleteAllRequested' },
      { type: 'deleteAllConfirmed' },
      { type: 'undoTimeEnded' },
    );
    expect(deleting.phase).toBe('deletingAll');
    expect(deleting.deleteAllIds).toEqual(['a', 'c']);
    expect(run(deleting, { type: 'deleteAllUndone' })).toBe(deleting);
  });
});

describe('calls', () => {
  test('delete batches send every row id, at most N per call, split by kind', () => {
    const group = lineItem('g', { ids: ['g1', 'g2', 'g3'] });
    const shot = screenshotItem('s');
    expect(toDeleteBatches([group, shot], 2)).toEqual([
      { input: { keystrokeLineIds: ['g1', 'g2'], screenshotIds: [] }, completedIds: [] },
      { input: { keystrokeLineIds: ['g3'], screenshotIds: ['s'] }, completedIds: ['g', 's'] },
    ]);
  });

  test('1,000 ids per delete call by default', () => {
    const items = Array.from({ length: 2500 }, (_, i) => screenshotItem(`s${i}`));
    const batches = toDeleteBatches(items);
    expect(batches.map((batch) => batch.input.screenshotIds.length)).toEqual([1000, 1000, 500]);
    expect(batches.flatMap((batch) => batch.completedIds)).toHaveLength(2500);
  });

  test('a flag sends the ids of every merged line, in calls of at most N', () => {
    expect(toFlagInputs(lineItem('g', { ids: ['g1', 'g2', 'g3'] }), 2)).toEqual([
      ['g1', 'g2'],
      ['g3'],
    ]);
  });
});

describe('alerts and flagged first (issue 24)', () => {
  const alert = { category: 'selfHarm', words: ['wanna die'] };
  // newest first: n1, f (flagged), x (alert), n2, y (alert)
  const n1 = lineItem('n1', { createdAt: '2026-11-23T10:05:00.000Z' });
  const f = screenshotItem('f', { createdAt: '2026-11-23T10:04:00.000Z', flagged: true });
  const x = lineItem('x', { createdAt: '2026-11-23T10:03:00.000Z', flagged: true, alert });
  const n2 = lineItem('n2', { createdAt: '2026-11-23T10:02:00.000Z' });
  const y = lineItem('y', { createdAt: '2026-11-23T10:01:00.000Z', flagged: true, alert });
  const day = () => initialActivityFeed([feed([n1, f, x, n2, y])]);

  test('a day with alerts opens with alerts, then flagged items, then the rest; first selected', () => {
    const state = day();
    expect(state.isAlertsFirst).toBe(true);
    expect(shownIds(state)).toEqual(['x', 'y', 'f', 'n1', 'n2']);
    expect(state.selectedId).toBe('x');
  });

  test('the toggle goes back to newest first and again, keeping the selection', () => {
    const off = run(day(), { type: 'itemSelected', id: 'f' }, { type: 'alertsFirstToggled' });
    expect(off.isAlertsFirst).toBe(false);
    expect(shownIds(off)).toEqual(['n1', 'f', 'x', 'n2', 'y']);
    expect(off.selectedId).toBe('f');
    const on = run(off, { type: 'alertsFirstToggled' });
    expect(shownIds(on)).toEqual(['x', 'y', 'f', 'n1', 'n2']);
  });

  test('a day without alerts stays newest first, even with flagged items', () => {
    const state = initialActivityFeed([feed([n1, f, n2])]);
    expect(state.isAlertsFirst).toBe(false);
    expect(shownIds(state)).toEqual(['n1', 'f', 'n2']);
    expect(shownIds(run(state, { type: 'alertsFirstToggled' }))).toEqual(['f', 'n1', 'n2']);
  });

  test('next alert moves through the alerts in display order and wraps round', () => {
    const off = run(day(), { type: 'alertsFirstToggled' }, { type: 'itemSelected', id: 'n1' });
    const first = run(off, { type: 'nextAlertRequested' });
    expect(first.selectedId).toBe('x');
    const second = run(first, { type: 'nextAlertRequested' });
    expect(second.selectedId).toBe('y');
    expect(run(second, { type: 'nextAlertRequested' }).selectedId).toBe('x');
    // no alerts: nothing moves
    const quiet = initialActivityFeed([feed([n1, n2])]);
    expect(run(quiet, { type: 'nextAlertRequested' })).toBe(quiet);
  });

  test('a flag toggled while reviewing does not move the item', () => {
    const state = run(day(), { type: 'flagToggled', id: 'n2' });
    expect(shownIds(state)).toEqual(['x', 'y', 'f', 'n1', 'n2']);
  });

  test('the family feed keeps each child together, alerts first within each', () => {
    const state = initialActivityFeed([
      feed([n1, x], { userName: 'Sam' }),
      feed([lineItem('m'), lineItem('z', { flagged: true, alert })], { userName: 'Ada' }),
    ]);
    expect(shownIds(state)).toEqual(['x', 'n1', 'z', 'm']);
  });

  test("issue 32: the child with the alert comes first, not another child's unflagged line", () => {
    const state = initialActivityFeed([
      feed([n1, lineItem('p')], { userName: 'Sam' }),
      feed([lineItem('m'), lineItem('z', { flagged: true, alert })], { userName: 'Ada' }),
    ]);
    expect(shownIds(state)).toEqual(['z', 'm', 'n1', 'p']);
    expect(state.selectedId).toBe('z');
    // with the switch off, the plain order (each child as listed) comes back
    expect(shownIds(run(state, { type: 'alertsFirstToggled' }))).toEqual(['n1', 'p', 'm', 'z']);
  });
});
