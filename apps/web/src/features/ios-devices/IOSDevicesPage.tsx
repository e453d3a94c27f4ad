import type { DashboardOutput } from '@keyward/contract/dashboard';
import { DevicePhoneMobileIcon, PencilSquareIcon } from '@heroicons/react/24/outline';
import { LinkButton } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage } from '../../lib/errors';
import { useIosDevices } from './api';
import { IosDeviceIcon } from './DeviceIcon';

type IosDeviceSummary = DashboardOutput<'IOSDevices'>[number];

/** `/ios-devices`: the children's iPhones and iPads. */
export default function IOSDevicesPage() {
  const devices = useIosDevices();

  if (devices.isPending) return <Spinner className="h-8 w-8" label="Loading iOS devices..." />;
  if (devices.isError) {
    if (devices.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <FullPageStatus status="failure" title="Error" message={errorMessage(devices.error)} />;
  }

  return (
    <>
      <PageHeading
        title="iOS devices"
        description="Your children's iPhones and iPads: block groups, web content filter and block rules."
      />
      {devices.data.length === 0 ? (
        <EmptyState
          icon={<DevicePhoneMobileIcon className="h-12 w-12" aria-hidden="true" />}
          title="No iOS devices"
          description="An iPhone or iPad appears here once the Keyward iOS app is connected with a connection code from a child's card."
          action={
            <LinkButton to="/children" variant="secondary">
              Go to children
            </LinkButton>
          }
        />
      ) : (
        <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {devices.data.map((device) => (
            <li key={device.id}>
              <IosDeviceCard device={device} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function IosDeviceCard({ device }: { device: IosDeviceSummary }) {
  const titleId = `ios-device-${device.id}`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start gap-4">
        <IosDeviceIcon deviceType={device.deviceType} className="h-12 w-12" />
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-lg font-semibold break-words text-slate-900">
            {device.childName}'s {device.deviceType}
          </h2>
        </div>
      </div>
      <dl className="mt-5 flex-1 space-y-2 text-sm">
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">Child</dt>
          <dd className="truncate font-medium text-slate-900">{device.childName}</dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">Device</dt>
          <dd className="truncate font-medium text-slate-900">{device.deviceType}</dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">iOS version</dt>
          <dd className="truncate font-medium text-slate-900">{device.osVersion}</dd>
        </div>
      </dl>
      <div className="mt-5 border-t border-slate-100 pt-4">
        <LinkButton to={`/ios-devices/${device.id}`} variant="secondary" size="sm">
          <PencilSquareIcon className="h-4 w-4" aria-hidden="true" />
          Settings
        </LinkButton>
      </div>
    </article>
  );
}
