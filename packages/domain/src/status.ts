import type { FilterState } from '@keyward/contract/device';
import type { ChildComputerStatus } from '@keyward/contract/shared';

/** A computer user without a heartbeat for this long is offline (server-behaviour §4.4). */
export const OFFLINE_AFTER_SECONDS = 100;

/** What the server knows about a computer user's live connection (its device_presence row). */
export interface ComputerUserPresence {
  lastSeenAt: Date | string;
  filterState?: FilterState | undefined;
}

function timeOf(date: Date | string): number {
  return typeof date === 'string' ? Date.parse(date) : date.getTime();
}

export function isOnline(presence: ComputerUserPresence | undefined, now: Date): boolean {
  if (presence === undefined) return false;
  const lastSeen = timeOf(presence.lastSeenAt);
  if (Number.isNaN(lastSeen)) return false;
  return now.getTime() - lastSeen < OFFLINE_AFTER_SECONDS * 1000;
}

/** server-behaviour §4.5, per computer user. */
export function computerUserStatus(
  presence: ComputerUserPresence | undefined,
  now: Date,
): ChildComputerStatus {
  if (!isOnline(presence, now) || presence?.filterState === undefined) return { case: 'offline' };
  const state = presence.filterState;
  switch (state.case) {
    case 'on':
      return { case: 'filterOn' };
    case 'off':
      return { case: 'filterOff' };
    case 'suspended':
      return { case: 'filterSuspended', resuming: state.resuming };
    case 'downtime':
      return { case: 'downtime', ending: state.ending };
    case 'downtimePaused':
      return { case: 'downtimePaused', resuming: state.resuming };
  }
}

/** Most worrying first. filterOn wins only when every computer is on. */
export const STATUS_SEVERITY: readonly ChildComputerStatus['case'][] = [
  'filterOff',
  'filterSuspended',
  'downtimePaused',
  'downtime',
  'offline',
  'filterOn',
];

function dateOf(status: ChildComputerStatus): string | undefined {
  switch (status.case) {
    case 'filterSuspended':
    case 'downtimePaused':
      return status.resuming;
    case 'downtime':
      return status.ending;
    default:
      return undefined;
  }
}

/**
 * server-behaviour §4.5, per child. Among computers sharing the chosen status, the date kept is the
 * one that bounds the worry: a suspension (or paused downtime) lasts until the LAST computer
 * resumes, while downtime shows its EARLIEST end, when the child can first get online again.
 */
export function childStatus(statuses: readonly ChildComputerStatus[]): ChildComputerStatus {
  const worst = STATUS_SEVERITY.find((severity) => statuses.some((s) => s.case === severity));
  if (worst === undefined) return { case: 'offline' };
  const dates = statuses
    .filter((s) => s.case === worst)
    .map(dateOf)
    .filter((d): d is string => d !== undefined)
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  switch (worst) {
    case 'filterSuspended':
    case 'downtimePaused': {
      const resuming = dates.at(-1);
      return resuming === undefined ? { case: worst } : { case: worst, resuming };
    }
    case 'downtime': {
      const ending = dates[0];
      return ending === undefined ? { case: worst } : { case: worst, ending };
    }
    default:
      return { case: worst };
  }
}

/** UI wording; formatTime turns an ISO date into a local time such as '3:15 PM'. */
export function statusLabel(
  status: ChildComputerStatus,
  formatTime: (isoDate: string) => string,
): string {
  const until = (date: string | undefined): string => (date ? ` until ${formatTime(date)}` : '');
  switch (status.case) {
    case 'filterOn':
      return 'Filter on';
    case 'filterOff':
      return 'Filter off';
    case 'offline':
      return 'Offline';
    case 'filterSuspended':
      return `Filter suspended${until(status.resuming)}`;
    case 'downtime':
      return `Downtime${until(status.ending)}`;
    case 'downtimePaused':
      return `Downtime paused${until(status.resuming)}`;
  }
}
