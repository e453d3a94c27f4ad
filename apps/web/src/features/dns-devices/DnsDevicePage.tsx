import type { DnsNameCount } from '@keyward/contract/dashboard';
import { keysNotForDnsWords } from '@keyward/domain/dns-status';
import { timeAgo } from '@keyward/domain/wording';
import { Link } from 'react-router';
import { LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { DNS_DEVICE_KINDS } from './dns-setup';
import { useDnsDevice } from './api';
import { DnsStatusBadge } from './DnsStatusBadge';

// Issue 33: a Keyward DNS device's page: its status (Filtering with the last query's time, or Not
// seen for N hours), today's queries, its most asked allowed and blocked names, the names blocked
// recently, what DNS cannot enforce of the child's keys, and its addresses.

function NameList({
  names,
  empty,
  now,
  showWhen = false,
}: {
  names: readonly DnsNameCount[];
  empty: string;
  now: Date;
  showWhen?: boolean;
}) {
  if (names.length === 0) return <p className="mt-2 text-sm text-slate-500">{empty}</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-100">
      {names.map((entry) => (
        <li key={entry.name} className="flex items-center justify-between gap-3 py-1.5 text-sm">
          <span className="min-w-0 break-all text-slate-900">{entry.name}</span>
          <span className="shrink-0 text-slate-500">
            {showWhen ? timeAgo(entry.lastAt, now) : `${entry.count}×`}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function DnsDevicePage({ computerId, now }: { computerId: string; now?: Date }) {
  const device = useDnsDevice(computerId);
  const at = now ?? new Date();
  if (device.isPending) return <Spinner className="h-8 w-8" label="Loading device..." />;
  if (device.isError) {
    if (device.error.type === 'loggedOut') return null;
    return <LoadFailure error={device.error} backTo="/computers" backLabel="Back to devices" />;
  }
  const d = device.data;
  const kindLabel = DNS_DEVICE_KINDS.find((entry) => entry.kind === d.kind)?.label ?? 'Device';
  const notForDns = keysNotForDnsWords(d.keysNotForDns);
  return (
    <>
      <PageHeading title={d.name} />
      <div className="max-w-3xl space-y-6">
        <Card>
          <dl className="divide-y divide-slate-100 text-sm">
            <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
              <dt className="font-medium text-slate-500">Status</dt>
              <dd>
                <DnsStatusBadge lastQueryAt={d.lastQueryAt} now={at} withDetail />
              </dd>
            </div>
            <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
              <dt className="font-medium text-slate-500">Child</dt>
              <dd>
                <Link
                  to={`/children/${d.childId}`}
                  className="font-semibold text-violet-700 hover:underline"
                >
                  {d.childName}
                </Link>
              </dd>
            </div>
            <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
              <dt className="font-medium text-slate-500">Kind</dt>
              <dd className="text-slate-900">{kindLabel}, filtered by Keyward DNS</dd>
            </div>
            <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
              <dt className="font-medium text-slate-500">Today</dt>
              <dd className="text-slate-900">
                {d.queriesToday} {d.queriesToday === 1 ? 'query' : 'queries'}, {d.blockedToday}{' '}
                blocked
              </dd>
            </div>
          </dl>
        </Card>

        {notForDns && (
          <p
            role="note"
            className="rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            {notForDns}
          </p>
        )}

        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Most asked in the last 24 hours</h2>
          <div className="mt-2 grid gap-6 sm:grid-cols-2">
            <section aria-labelledby="dns-top-allowed">
              <h3 id="dns-top-allowed" className="text-sm font-semibold text-slate-700">
                Allowed
              </h3>
              <NameList names={d.topAllowed} empty="Nothing allowed yet." now={at} />
            </section>
            <section aria-labelledby="dns-top-blocked">
              <h3 id="dns-top-blocked" className="text-sm font-semibold text-slate-700">
                Blocked
              </h3>
              <NameList names={d.topBlocked} empty="Nothing blocked yet." now={at} />
            </section>
          </div>
        </Card>

        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Recently blocked</h2>
          <p className="mt-1 text-sm text-slate-500">
            {d.childName} can ask for these from the device, at its ask page.
          </p>
          <NameList
            names={d.recentlyBlocked}
            empty="Nothing blocked in the last 24 hours."
            now={at}
            showWhen
          />
        </Card>

        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Addresses</h2>
          <dl className="mt-2 divide-y divide-slate-100 text-sm">
            <div className="py-2">
              <dt className="font-medium text-slate-500">Private DNS / DNS over TLS hostname</dt>
              <dd className="break-all text-slate-900">
                <code>{d.dotHostname}</code>
              </dd>
            </div>
            <div className="py-2">
              <dt className="font-medium text-slate-500">DNS over HTTPS</dt>
              <dd className="break-all text-slate-900">
                <code>{d.dohUrl}</code>
              </dd>
            </div>
            {d.appleProfileUrl && (
              <div className="py-2">
                <dt className="font-medium text-slate-500">Configuration profile</dt>
                <dd>
                  <a
                    href={d.appleProfileUrl}
                    className="font-medium text-violet-700 underline hover:text-violet-900"
                  >
                    Download the profile
                  </a>{' '}
                  <span className="text-slate-500">
                    {d.hasRemovalPassword
                      ? '(asks your removal password before it can be removed)'
                      : '(no removal password)'}
                  </span>
                </dd>
              </div>
            )}
          </dl>
        </Card>

        <LinkButton to="/computers" variant="secondary">
          Back to devices
        </LinkButton>
      </div>
    </>
  );
}
