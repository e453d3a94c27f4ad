import type { ChildComputerStatus } from '@keyward/contract/shared';
import { statusLabel } from '@keyward/domain/status';
import { useAreStatusesStale } from '../../lib/server-reachability';
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
  const label = statusLabel(status, formatLocalTime);
  // Our server cannot be reached: the status is the last one read, shown greyed (issue 20).
  if (useAreStatusesStale()) {
    return (
      <span title="Last known status" className="opacity-60 grayscale">
        <Badge tone="neutral">
          {label}
          <span className="sr-only"> (last known)</span>
        </Badge>
      </span>
    );
  }
  return <Badge tone={tones[status.case]}>{label}</Badge>;
}
