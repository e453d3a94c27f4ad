import type { InboxItem } from '@keyward/contract/shared';

// Issue 20: everything that waits for the parent, in one place. Pure rules of the inbox's screens
// (grouping, counts, the tab title) and the reducer of what the parent does there.

/** The inbox is polled: a child's new request shows within 5 s, without a reload. */
export const INBOX_POLL_MS = 4_000;

/** The home page shows this many requests, then 'And N more' with a link to the inbox page. */
export const HOME_INBOX_ITEMS = 5;

export type InboxGroup = { childId: string; childName: string; items: InboxItem[] };

const newestFirst = (a: InboxItem, b: InboxItem) =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt) || a.id.localeCompare(b.id);

/** Items grouped by child: the child with the newest request first, each child's newest first. */
export function groupByChild(items: readonly InboxItem[]): InboxGroup[] {
  const groups = new Map<string, InboxGroup>();
  for (const item of [...items].sort(newestFirst)) {
    const group = groups.get(item.childId);
    if (group) group.items.push(item);
    else
      groups.set(item.childId, { childId: item.childId, childName: item.childName, items: [item] });
  }
  return [...groups.values()];
}

/** The first `count` items (newest first) and how many more there are. */
export function inboxPreview(
  items: readonly InboxItem[],
  count = HOME_INBOX_ITEMS,
): { shown: InboxItem[]; numMore: number } {
  const sorted = [...items].sort(newestFirst);
  return { shown: sorted.slice(0, count), numMore: Math.max(0, sorted.length - count) };
}

/** Issue 31: per child, how many waiting requests the server counted but did not list. */
export type InboxMore = readonly {
  childId: string;
  childName: string;
  count: number;
  /** the server stopped counting: there may be more */
  isAtLeast?: true;
}[];

/** Everything that waits: the listed items and the ones only counted. */
export function waitingCount(items: readonly InboxItem[], more: InboxMore = []): number {
  return more.reduce((sum, entry) => sum + entry.count, items.length);
}

/** How many of the child's waiting requests are not listed (0 when every one is). */
export function notListedOf(more: InboxMore, childId: string): number {
  return more.find((entry) => entry.childId === childId)?.count ?? 0;
}

/** "39975", or "at least 1975" when the server stopped counting. */
export function notListedText(more: InboxMore, childId: string): string {
  const entry = more.find((candidate) => candidate.childId === childId);
  if (!entry) return '0';
  return entry.isAtLeast ? `at least ${entry.count}` : String(entry.count);
}

/** `(3) Keyward`: the tab title counts what waits, so a background tab shows it. */
export function titleWithCount(count: number, base = 'Keyward'): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

/** The badge's text: the count, capped so it fits. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

export function requestKindLabel(item: InboxItem): string {
  return item.case === 'suspension' ? 'Suspension request' : 'Unlock request';
}

// ---- what the parent does in the list ----

export type InboxViewState = {
  /** the suspension request whose decision form is open */
  openId: string | undefined;
  /** decided here, hidden before the next poll confirms it */
  decidedIds: string[];
  /** the parent decided at least one request here: an empty list says "all answered" */
  hasDecided: boolean;
};

export type InboxViewEvent =
  | { type: 'decideOpened'; id: string }
  | { type: 'decideClosed' }
  | { type: 'decided'; id: string }
  | { type: 'inboxLoaded'; ids: readonly string[] };

export const initialInboxView: InboxViewState = {
  openId: undefined,
  decidedIds: [],
  hasDecided: false,
};

export function inboxViewReducer(state: InboxViewState, event: InboxViewEvent): InboxViewState {
  switch (event.type) {
    case 'decideOpened':
      return { ...state, openId: event.id };
    case 'decideClosed':
      return { ...state, openId: undefined };
    case 'decided':
      return {
        openId: state.openId === event.id ? undefined : state.openId,
        decidedIds: state.decidedIds.includes(event.id)
          ? state.decidedIds
          : [...state.decidedIds, event.id],
        hasDecided: true,
      };
    case 'inboxLoaded': {
      // a request the server no longer lists needs no hiding; one decided elsewhere closes its form
      const decidedIds = state.decidedIds.filter((id) => event.ids.includes(id));
      const openId = state.openId && event.ids.includes(state.openId) ? state.openId : undefined;
      if (decidedIds.length === state.decidedIds.length && openId === state.openId) return state;
      return { ...state, decidedIds, openId };
    }
  }
}

/** The items still waiting, as the parent sees them. */
export function waitingItems(items: readonly InboxItem[], state: InboxViewState): InboxItem[] {
  return items.filter((item) => !state.decidedIds.includes(item.id));
}
