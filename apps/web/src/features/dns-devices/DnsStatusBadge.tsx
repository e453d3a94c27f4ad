import { dnsDeviceStatus, dnsStatusDetail, dnsStatusLabel } from '@keyward/domain/dns-status';
import { Badge } from '../../components/ui/Badge';

/** Issue 33: a DNS device's status: *Filtering* while it asks Keyward, else *Not seen for N hours*. */
export function DnsStatusBadge({
  lastQueryAt,
  now,
  withDetail = false,
}: {
  lastQueryAt: string | undefined;
  now: Date;
  withDetail?: boolean;
}) {
  const status = dnsDeviceStatus(lastQueryAt, now);
  const badge = (
    <Badge tone={status.case === 'filtering' ? 'ok' : 'neutral'}>{dnsStatusLabel(status)}</Badge>
  );
  if (!withDetail) return badge;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {badge}
      <span className="text-sm text-slate-600">{dnsStatusDetail(status, now)}</span>
    </span>
  );
}
