import type { ChildComputerStatus } from '@keyward/contract/shared';
import { statusLabel } from '@keyward/domain/status';
import { Badge, type BadgeTone } from './Badge';

const tones: Record<ChildComputerStatus['case'], BadgeTone> = {
  filterOn: 'ok',
  filterOff: 'error',
  filterSuspended: 'warning',
  downtimePaused: 'warning',
  downtime: 'brand',
  offline: 'neutral',
};

/** '3:15 PM' in the parent's own time zone and locale. */
export function formatLocalTime(isoDate: string): string {
  return new Date(isoDate).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** A child's or computer's status, with its times ('Filter suspended until 3:15 PM') in local time. */
export function StatusBadge({ status }: { status: ChildComputerStatus }) {
  return <Badge tone={tones[status.case]}>{statusLabel(status, formatLocalTime)}</Badge>;
}
