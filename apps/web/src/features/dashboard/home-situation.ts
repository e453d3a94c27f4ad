import type { DashboardWidgetsOutput } from '@keyward/contract/shared';

export type HomeChild = DashboardWidgetsOutput['children'][number];

/**
 * The spec's three situations of the home page: no children (welcome), the first child has no
 * computer yet (setup), or children with computers (overview). Children come oldest first.
 */
export type HomeSituation =
  | { case: 'welcome' }
  | { case: 'setup'; child: HomeChild }
  | { case: 'overview' };

export function homeSituation(
  widgets: Pick<DashboardWidgetsOutput, 'children'>,
  otherDevices: ReadonlyMap<string, number> = new Map(),
): HomeSituation {
  const first = widgets.children[0];
  if (!first) return { case: 'welcome' };
  if (devicesOfChild(first, otherDevices) === 0) return { case: 'setup', child: first };
  return { case: 'overview' };
}

/**
 * Issue 20: a child is set up with a device of any kind. `numDevices` counts the child's computer
 * users (Macs, and browsers with Keyward for Chrome, stored alike); `otherDevices` holds, per child
 * id, the devices of the other kinds (iPhones, iPads) from GetFamilyDevices.
 */
export function devicesOfChild(
  child: Pick<HomeChild, 'id' | 'numDevices'>,
  otherDevices: ReadonlyMap<string, number>,
): number {
  return child.numDevices + (otherDevices.get(child.id) ?? 0);
}

/** Per child id, how many devices it has that `numDevices` does not count (iPhones, iPads). */
export function nonMacDevicesByChild(
  devices: readonly { kind: string; childId: string }[] | undefined,
): Map<string, number> {
  const counts = new Map<string, number>();
  // a read that failed or answered something else (a test's fake server) counts as none
  if (!Array.isArray(devices)) return counts;
  for (const device of devices) {
    if (device.kind === 'mac' || device.kind === 'browser' || device.kind === 'dns') continue;
    counts.set(device.childId, (counts.get(device.childId) ?? 0) + 1);
  }
  return counts;
}

/** Issue 20: the home page lists at most this many children, then 'and N more'. */
export const HOME_CHILDREN_COUNT = 5;

/** Spec §9: the dashboard shows 2 pending unlock requests. */
export const WIDGET_REQUEST_COUNT = 2;

type WidgetRequest = DashboardWidgetsOutput['unlockRequests'][number];

/** The newest pending requests shown, and how many older ones are not. */
export function pendingRequestsPreview(
  requests: readonly WidgetRequest[],
  count = WIDGET_REQUEST_COUNT,
): { shown: WidgetRequest[]; numOlder: number } {
  const newestFirst = [...requests].sort(
    (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
  return { shown: newestFirst.slice(0, count), numOlder: Math.max(0, newestFirst.length - count) };
}

/** Total items waiting for review, over all children. */
export function totalUnreviewed(
  summaries: DashboardWidgetsOutput['childActivitySummaries'],
): number {
  return summaries.reduce((sum, child) => sum + child.numUnreviewed, 0);
}

/** The child a screenshot belongs to (the wire gives only its name), for the link to its activity. */
export function childIdByName(
  children: readonly HomeChild[],
  childName: string,
): string | undefined {
  return children.find((child) => child.name === childName)?.id;
}
