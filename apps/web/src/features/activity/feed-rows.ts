import { ACTIVITY_DELETE_CHUNK, groupSuspensionActivity } from '@keyward/domain/activity';
import { type FeedEntry, hasAlert, isShown } from './activity-feed';

// The rows of the virtual list of a day's feed, in order: a heading per child (family feed only),
// the items, and a 'Delete previous N items' row after every 100 items.

/** Where an item sits in a highlighted suspension group, for the band drawn around the group. */
export type SuspensionPosition = 'only' | 'first' | 'middle' | 'last';

export type FeedRow =
  | { type: 'child'; key: string; childName: string }
  | {
      type: 'item';
      key: string;
      entry: FeedEntry;
      /** Position among the shown items (0 = newest). */
      index: number;
      suspension?: SuspensionPosition;
    }
  | {
      type: 'deletePrevious';
      key: string;
      /** The ids of every shown item above this row; the flagged ones are kept. */
      ids: string[];
      numDeletable: number;
    };

function suspensionPositions(entries: readonly FeedEntry[]): Map<FeedEntry, SuspensionPosition> {
  const positions = new Map<FeedEntry, SuspensionPosition>();
  const groups = groupSuspensionActivity(
    entries.map((entry) => ({
      entry,
      case: entry.item.case,
      createdAt: entry.item.createdAt,
      duringSuspension: entry.item.duringSuspension,
    })),
  );
  for (const group of groups) {
    if (group.type !== 'suspension') continue;
    group.items.forEach(({ entry }, i) => {
      const isLast = i === group.items.length - 1;
      positions.set(
        entry,
        group.items.length === 1 ? 'only' : i === 0 ? 'first' : isLast ? 'last' : 'middle',
      );
    });
  }
  return positions;
}

export function buildFeedRows(
  entries: readonly FeedEntry[],
  { showsChildNames = false, chunk = ACTIVITY_DELETE_CHUNK, isAlertsFirst = false } = {},
): FeedRow[] {
  const shown = entries.filter(isShown);
  const byChild = new Map<number, FeedEntry[]>();
  for (const entry of shown) {
    const list = byChild.get(entry.feedIndex);
    if (list) list.push(entry);
    else byChild.set(entry.feedIndex, [entry]);
  }

  const rows: FeedRow[] = [];
  const above: FeedEntry[] = [];
  let index = 0;
  for (const [feedIndex, childEntries] of byChild) {
    const childName = childEntries[0]?.childName ?? '';
    if (showsChildNames) rows.push({ type: 'child', key: `child:${feedIndex}`, childName });
    // issue 24: items moved to the top (alerts, flagged) are out of time order: no band for them
    const inTimeOrder = isAlertsFirst
      ? childEntries.filter((entry) => !hasAlert(entry.item) && !entry.item.flagged)
      : childEntries;
    const positions = childEntries[0]?.showsSuspension
      ? suspensionPositions(inTimeOrder)
      : new Map<FeedEntry, SuspensionPosition>();
    for (const entry of childEntries) {
      rows.push({
        type: 'item',
        key: entry.item.id,
        entry,
        index,
        suspension: positions.get(entry),
      });
      above.push(entry);
      index += 1;
      if (index % chunk === 0 && index < shown.length) {
        rows.push({
          type: 'deletePrevious',
          key: `delete:${entry.item.id}`,
          ids: above.map((item) => item.item.id),
          numDeletable: above.filter((item) => !item.item.flagged).length,
        });
      }
    }
  }
  return rows;
}

/** The row index of an item, for scrolling the selection into view. */
export function rowIndexOf(rows: readonly FeedRow[], id: string | null): number {
  if (id === null) return -1;
  return rows.findIndex((row) => row.type === 'item' && row.entry.item.id === id);
}
