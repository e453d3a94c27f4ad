import { LinkButton } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage } from '../../lib/errors';
import { useFamilyDevices } from './api';
import { DeviceCard } from './DeviceCard';
import { DEVICE_KIND_WORDS, DEVICES_PAGES, type DevicesPageKind, groupDevices } from './devices';
import { DEVICE_KIND_ICONS } from './kind-icons';

/**
 * `/computers` and `/ios-devices`: the family's devices of one kind, one card each (issue 20: one
 * page for every kind instead of a copy per kind).
 */
export default function DevicesPage({ kind, now }: { kind: DevicesPageKind; now?: Date }) {
  const devices = useFamilyDevices();
  const words = DEVICE_KIND_WORDS[kind];

  if (devices.isPending) {
    return <Spinner className="h-8 w-8" label={`Loading ${words.title.toLowerCase()}...`} />;
  }
  if (devices.isError) {
    if (devices.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <FullPageStatus status="failure" title="Error" message={errorMessage(devices.error)} />;
  }
  const groups = groupDevices(devices.data, DEVICES_PAGES[kind]);
  const EmptyIcon = DEVICE_KIND_ICONS[kind];
  return (
    <>
      <PageHeading title={words.title} />
      {groups.length === 0 ? (
        <EmptyState
          icon={<EmptyIcon className="h-12 w-12" aria-hidden="true" />}
          title={words.empty}
          description={words.emptyDescription}
          action={
            <LinkButton to="/children" variant="secondary">
              Go to children
            </LinkButton>
          }
        />
      ) : (
        <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {groups.map((group) => (
            <li key={group.path}>
              <DeviceCard group={group} now={now ?? new Date()} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
