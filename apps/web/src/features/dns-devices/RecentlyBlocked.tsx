import { timeAgo } from '@keyward/domain/wording';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { useDnsDevice } from './api';

// Issue 33: on the child's page, what Keyward DNS blocked on one of the child's DNS devices in the
// last 24 hours (the names the child can ask for at the device's ask page).

const SHOWN = 8;

export function RecentlyBlocked({
  computerId,
  deviceName,
  now,
}: {
  computerId: string;
  deviceName: string;
  now: Date;
}) {
  const device = useDnsDevice(computerId);
  const names = device.data?.recentlyBlocked ?? [];
  const headingId = `recently-blocked-${computerId}`;
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Recently blocked on {deviceName}
        </h2>
        {device.isPending ? (
          <p className="mt-2 text-sm text-slate-500">Loading…</p>
        ) : device.isError ? (
          <p className="mt-2 text-sm text-slate-500">Could not load what was blocked.</p>
        ) : names.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">Nothing blocked in the last 24 hours.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {names.slice(0, SHOWN).map((entry) => (
              <li
                key={entry.name}
                className="flex items-center justify-between gap-3 py-1.5 text-sm"
              >
                <span className="min-w-0 break-all text-slate-900">{entry.name}</span>
                <span className="shrink-0 text-slate-500">{timeAgo(entry.lastAt, now)}</span>
              </li>
            ))}
          </ul>
        )}
        <Link
          to={`/computers/${computerId}`}
          className="mt-3 inline-block text-sm font-semibold text-violet-700 hover:underline"
        >
          See the device
        </Link>
      </section>
    </Card>
  );
}
