import type { FamilyDevice, User } from '@keyward/contract/shared';
import {
  describeKeychainInForce,
  type KeychainInForce,
  keychainInForce,
} from '@keyward/domain/keychains-in-force';
import { pluralise } from '@keyward/domain/wording';
import { PlusIcon } from '@heroicons/react/24/outline';
import { Link } from 'react-router';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ActivityInsights } from '../activity/ActivityInsights';
import { toUrlDate } from '../activity/activity-dates';
import { useChildActivitySummaries } from '../activity/api';
import { useFamilyDevices } from '../devices/api';
import { DeviceCard } from '../devices/DeviceCard';
import { groupDevices } from '../devices/devices';
import { inboxAlertsOf, inboxItemsOf, inboxMoreOf, inboxMoreTimeOf, useInbox } from '../inbox/api';
import { MoreTimeRequests, PauseInternetControl } from '../screen-time/ScreenTime';
import { NeedsYou } from '../inbox/NeedsYou';

// Issue 20: the child's page leads with how the child is doing (what they ask for, their devices
// of every kind with their live status, today's activity, the keychains in force now), and only
// then the settings.

/** The child's devices of every kind, from GetFamilyDevices (undefined until known). */
export function useChildDevices(childId: string): FamilyDevice[] | undefined {
  const devices = useFamilyDevices();
  return Array.isArray(devices.data)
    ? devices.data.filter((device) => device.childId === childId)
    : undefined;
}

export function ChildOverview({
  child,
  devices,
  now,
  onAddDevice,
  onDeleteConnection,
}: {
  child: User;
  devices: readonly FamilyDevice[];
  now: Date;
  onAddDevice: () => void;
  /** a Mac, browser or DNS device's connection to this child (a computer user) */
  onDeleteConnection?: (connectionId: string) => void;
}) {
  const inbox = useInbox();
  const asks = inboxItemsOf(inbox.data)?.filter((item) => item.childId === child.id);
  const moreTime = inboxMoreTimeOf(inbox.data).filter((request) => request.childId === child.id);
  return (
    <div className="space-y-6">
      {/* issue 34: Pause internet, and the child's requests for more time */}
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold text-slate-900">Internet</h2>
          <PauseInternetControl
            childId={child.id}
            childName={child.name}
            pause={child.screenTime?.pause}
          />
        </div>
      </Card>
      <MoreTimeRequests requests={moreTime} now={now} showChildNames={false} />
      {asks && (
        <NeedsYou
          items={asks}
          more={inboxMoreOf(inbox.data).filter((entry) => entry.childId === child.id)}
          alerts={inboxAlertsOf(inbox.data).filter((alert) => alert.childId === child.id)}
          now={now}
          title={`${child.name} is asking`}
          description="Waiting for your answer."
          showChildNames={false}
          hideWhenEmpty
        />
      )}
      <Card>
        <section aria-labelledby="child-devices-heading">
          <div className="flex items-center justify-between gap-3">
            <h2 id="child-devices-heading" className="text-lg font-semibold text-slate-900">
              Devices
            </h2>
            <Button variant="secondary" size="sm" onClick={onAddDevice}>
              <PlusIcon className="h-4 w-4" aria-hidden="true" />
              Add device
            </Button>
          </div>
          <ul className="mt-4 grid gap-4 md:grid-cols-2">
            {groupDevices(devices).map((group) => {
              // an iPhone or iPad is removed from its own page; the others are this child's
              // connection (computer user) to the device
              const connection = group.kind === 'ios' ? undefined : group.entries[0];
              return (
                <li key={group.path}>
                  <DeviceCard
                    group={group}
                    now={now}
                    showChildren={false}
                    headingLevel={3}
                    onDeleteConnection={
                      onDeleteConnection && connection
                        ? () => onDeleteConnection(connection.id)
                        : undefined
                    }
                  />
                </li>
              );
            })}
          </ul>
        </section>
      </Card>
      <div className="grid gap-6 md:grid-cols-2 [&>*]:min-w-0">
        <TodayCard childId={child.id} now={now} />
        <KeychainsInForceCard child={child} now={now} />
      </div>
      <ActivityInsights childId={child.id} childName={child.name} />
    </div>
  );
}

function TodayCard({ childId, now }: { childId: string; now: Date }) {
  const summaries = useChildActivitySummaries(childId);
  const today = toUrlDate(now);
  const days = Array.isArray(summaries.data?.days) ? summaries.data.days : [];
  const day = days.find((summary) => toUrlDate(summary.date) === today);
  const toReview = day ? Math.max(0, day.numTotal - day.numApproved) : 0;
  return (
    <Card>
      <section aria-labelledby="child-today-heading">
        <h2 id="child-today-heading" className="text-lg font-semibold text-slate-900">
          Today's activity
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          {summaries.isPending
            ? 'Loading...'
            : !day || day.numTotal === 0
              ? 'Nothing reported today.'
              : toReview === 0
                ? `All ${pluralise(day.numTotal, 'item')} reviewed.`
                : `${pluralise(toReview, 'item')} to review${day.numFlagged > 0 ? `, ${day.numFlagged} flagged` : ''}.`}
        </p>
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm font-semibold">
          {day && day.numTotal > 0 && (
            <Link
              to={`/children/${childId}/activity/${today}`}
              className="text-violet-700 hover:underline"
            >
              Review today's activity
            </Link>
          )}
          <Link to={`/children/${childId}/activity`} className="text-violet-700 hover:underline">
            All activity
          </Link>
        </p>
      </section>
    </Card>
  );
}

function KeychainsInForceCard({ child, now }: { child: User; now: Date }) {
  const keychains = child.keychains.map((keychain) => ({
    keychain,
    state: keychainInForce(keychain.schedule, now),
  }));
  const isInForce = (state: KeychainInForce) => state.case !== 'later';
  const inForce = keychains.filter(({ state }) => isInForce(state));
  const later = keychains.filter(({ state }) => !isInForce(state));
  return (
    <Card>
      <section aria-labelledby="child-keychains-now-heading">
        <h2 id="child-keychains-now-heading" className="text-lg font-semibold text-slate-900">
          Keychains in force now
        </h2>
        {keychains.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            No keychains yet: {child.name} can reach only what the filter allows by default.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {[...inForce, ...later].map(({ keychain, state }) => (
              <li key={keychain.id} className="flex items-center justify-between gap-3 py-2">
                <span
                  className={
                    isInForce(state)
                      ? 'min-w-0 truncate font-medium text-slate-900'
                      : 'min-w-0 truncate text-slate-500'
                  }
                >
                  {keychain.name}
                </span>
                <span
                  className={
                    isInForce(state) ? 'shrink-0 text-green-700' : 'shrink-0 text-slate-500'
                  }
                >
                  {describeKeychainInForce(state, now)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}
