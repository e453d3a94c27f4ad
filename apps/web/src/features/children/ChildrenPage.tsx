import type { User } from '@keyward/contract/shared';
import { matchesSearch, SEARCH_FROM_ITEMS } from '@keyward/domain/search';
import { pluralise } from '@keyward/domain/wording';
import {
  CameraIcon,
  Cog6ToothIcon,
  CommandLineIcon,
  ExclamationTriangleIcon,
  InboxIcon,
  PhotoIcon,
  PlusIcon,
  UserGroupIcon,
} from '@heroicons/react/24/outline';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { ComputerIcon } from '../../components/ui/ComputerIcon';
import { cx } from '../../components/ui/cx';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { TextInput } from '../../components/ui/TextInput';
import { errorMessage } from '../../lib/errors';
import { useIosDevices } from '../ios-devices/api';
import { IosDeviceIcon } from '../ios-devices/DeviceIcon';
import { useChildren } from '../../lib/children';
import { computerName, summariseChild } from './child-summary';
import { ConnectionCodeDialog } from './ConnectionCodeDialog';

export default function ChildrenPage() {
  const children = useChildren();
  const iosDevices = useIosDevices();
  const [connectingChild, setConnectingChild] = useState<User | null>(null);
  const [query, setQuery] = useState('');

  if (children.isPending) return <Spinner className="h-8 w-8" label="Loading children..." />;
  if (children.isError) {
    if (children.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <FullPageStatus status="failure" title="Error" message={errorMessage(children.error)} />;
  }

  const addChild = (
    <LinkButton to="/children/new">
      <PlusIcon className="h-5 w-5" aria-hidden="true" />
      Add child
    </LinkButton>
  );

  return (
    <>
      <PageHeading
        title="Children"
        actions={
          children.data.length > 0 ? (
            <>
              <LinkButton to="/children/activity" variant="secondary">
                <PhotoIcon className="h-5 w-5" aria-hidden="true" />
                All activity
              </LinkButton>
              {addChild}
            </>
          ) : undefined
        }
      />
      {children.data.length === 0 ? (
        <EmptyState
          icon={<UserGroupIcon className="h-12 w-12" aria-hidden="true" />}
          title="No children"
          description="Add a child, then connect their devices: a Mac, an iPhone or iPad, or Chrome."
          action={
            <LinkButton to="/children/new">
              <PlusIcon className="h-5 w-5" aria-hidden="true" />
              Add a child
            </LinkButton>
          }
        />
      ) : (
        <>
          {children.data.length >= SEARCH_FROM_ITEMS && (
            <TextInput
              type="text"
              label="Search children"
              hideLabel
              placeholder="Search children"
              value={query}
              onChange={setQuery}
              className="mb-6 max-w-sm"
            />
          )}
          {children.data.every((child) => !matchesSearch([child.name], query)) && (
            <p role="status" className="text-sm text-slate-600">
              No child matches "{query}".
            </p>
          )}
          <ul className="grid gap-6 lg:grid-cols-2">
            {children.data
              .filter((child) => matchesSearch([child.name], query))
              .map((child) => (
                <li key={child.id}>
                  <ChildCard
                    child={child}
                    iosDevices={
                      Array.isArray(iosDevices.data)
                        ? iosDevices.data.filter((device) => device.childId === child.id)
                        : []
                    }
                    onAddComputer={() => setConnectingChild(child)}
                  />
                </li>
              ))}
          </ul>
        </>
      )}
      <ConnectionCodeDialog
        isOpen={connectingChild !== null}
        childId={connectingChild?.id ?? ''}
        childName={connectingChild?.name ?? ''}
        onClose={() => setConnectingChild(null)}
      />
    </>
  );
}

function MonitoringIndicator({
  label,
  isOn,
  icon,
}: {
  label: string;
  isOn: boolean;
  icon: typeof CameraIcon;
}) {
  const Icon = icon;
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium',
        isOn ? 'bg-violet-50 text-violet-700' : 'bg-slate-100 text-slate-600',
      )}
    >
      <Icon className="h-4 w-4" aria-hidden="true" />
      {label} {isOn ? 'on' : 'off'}
    </span>
  );
}

type IosDeviceSummary = { id: string; deviceType: string; osVersion: string };

function ChildCard({
  child,
  iosDevices,
  onAddComputer,
}: {
  child: User;
  iosDevices: IosDeviceSummary[];
  onAddComputer: () => void;
}) {
  const summary = summariseChild(child);
  const isSetupIncomplete = summary.numDevices === 0 && iosDevices.length === 0;
  return (
    <article
      aria-labelledby={`child-${child.id}`}
      className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h2 id={`child-${child.id}`} className="truncate text-lg font-semibold text-slate-900">
            {child.name}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">
            {pluralise(summary.numKeychains, 'keychain')} · {pluralise(summary.numKeys, 'key')}
          </p>
        </div>
        {isSetupIncomplete ? (
          <span className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-amber-700">
            <ExclamationTriangleIcon className="h-5 w-5" aria-hidden="true" />
            Setup incomplete
          </span>
        ) : (
          <StatusBadge status={summary.status} />
        )}
      </div>

      <div className="mt-4 flex flex-wrap gap-2">
        <MonitoringIndicator
          label="Screenshots"
          isOn={child.screenshotsEnabled}
          icon={CameraIcon}
        />
        <MonitoringIndicator
          label="Keystroke monitoring"
          isOn={child.keyloggingEnabled}
          icon={CommandLineIcon}
        />
      </div>

      <div className="mt-5 flex-1">
        <div className="flex items-center justify-between">
          <h3 className="text-sm font-medium text-slate-700">Computers</h3>
          <button
            type="button"
            onClick={onAddComputer}
            aria-label={`Add a computer for ${child.name}`}
            title="Add a computer"
            className="rounded-full p-1 text-violet-700 hover:bg-violet-50 focus-visible:outline-2 focus-visible:outline-violet-500"
          >
            <PlusIcon className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
        {isSetupIncomplete ? (
          <div className="mt-2 rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
            <p>Connect {child.name}'s computer to start protecting it.</p>
            <Button size="sm" className="mt-3" onClick={onAddComputer}>
              Finish setup
            </Button>
          </div>
        ) : child.devices.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No computers yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {child.devices.map((device) => (
              <li key={device.id} className="flex items-center gap-3 py-2">
                <ComputerIcon family={device.modelFamily} className="h-7 w-7" />
                <div className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="min-w-0 truncate text-sm text-slate-900">
                    {computerName(device)}
                  </span>
                  <StatusBadge status={device.status} />
                </div>
              </li>
            ))}
          </ul>
        )}
        {iosDevices.length > 0 && (
          <>
            <h3 className="mt-4 text-sm font-medium text-slate-700">iOS devices</h3>
            <ul
              aria-label={`${child.name}'s iOS devices`}
              className="mt-2 divide-y divide-slate-100"
            >
              {iosDevices.map((device) => (
                <li key={device.id} className="flex items-center gap-3 py-2">
                  <IosDeviceIcon deviceType={device.deviceType} className="h-7 w-7" />
                  <div className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1">
                    <Link
                      to={`/ios-devices/${device.id}`}
                      className="min-w-0 truncate text-sm font-medium text-violet-700 hover:underline"
                    >
                      {device.deviceType}
                    </Link>
                    <span className="text-xs text-slate-500">iOS {device.osVersion}</span>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      <div className="mt-5 flex flex-wrap gap-3 border-t border-slate-100 pt-4">
        <LinkButton to={`/children/${child.id}`} variant="secondary" size="sm">
          <Cog6ToothIcon className="h-4 w-4" aria-hidden="true" />
          Settings
        </LinkButton>
        <LinkButton to={`/children/${child.id}/activity`} variant="secondary" size="sm">
          <PhotoIcon className="h-4 w-4" aria-hidden="true" />
          Activity
        </LinkButton>
        <LinkButton to={`/children/${child.id}/unlock-requests`} variant="secondary" size="sm">
          <InboxIcon className="h-4 w-4" aria-hidden="true" />
          Requests
        </LinkButton>
      </div>
    </article>
  );
}
