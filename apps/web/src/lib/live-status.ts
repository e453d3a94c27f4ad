import type { ChildComputerStatus } from '@keyward/contract/shared';

// Live statuses on the home, children and computers pages: while any Mac of the family is online
// the page asks again every 5 seconds (a status change shows within a few seconds, no reload);
// while every Mac is offline, every 30 seconds, enough to notice one coming online. react-query
// stops while the tab is hidden. Polling was measured against a server-sent event stream (README,
// "Live statuses"): at these rates it costs the server less and needs no long-lived connection.

export const ONLINE_POLL_MS = 5_000;
export const OFFLINE_POLL_MS = 30_000;

type WithStatus = { status: ChildComputerStatus };

export function isOnlineStatus(status: ChildComputerStatus): boolean {
  return status.case !== 'offline';
}

/** The refetch interval for a list of statuses (undefined = nothing loaded yet). */
export function liveStatusInterval(statuses: readonly ChildComputerStatus[] | undefined): number {
  return statuses?.some(isOnlineStatus) ? ONLINE_POLL_MS : OFFLINE_POLL_MS;
}

/** Every Mac status in a GetUsers / GetDevices answer (children's devices, computers' users). */
export function macStatusesOf(
  entries:
    | readonly { devices?: readonly WithStatus[]; users?: readonly WithStatus[] }[]
    | undefined,
): ChildComputerStatus[] | undefined {
  return entries
    ?.flatMap((entry) => [...(entry.devices ?? []), ...(entry.users ?? [])])
    .map((device) => device.status);
}
