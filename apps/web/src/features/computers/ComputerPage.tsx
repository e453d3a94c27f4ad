import { LIMITS } from '@keyward/contract/constants';
import type { Device, ReleaseChannel } from '@keyward/contract/shared';
import { isDnsModel } from '@keyward/domain/device-models';
import { RELEASE_CHANNELS } from '@keyward/domain/releases';
import { type FormEvent, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Badge } from '../../components/ui/Badge';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ComputerIcon } from '../../components/ui/ComputerIcon';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { TextInput } from '../../components/ui/TextInput';
import { DnsDevicePage } from '../dns-devices/DnsDevicePage';
import { useComputer, useLatestAppVersions, useSaveComputer } from './api';
import {
  type ComputerForm,
  computerFormOf,
  hasComputerChanged,
  isUpToDate,
  toSaveComputerInput,
} from './computer-form';

const channelLabels: Record<ReleaseChannel, string> = {
  stable: 'Stable',
  beta: 'Beta',
  canary: 'Canary',
};

export default function ComputerPage() {
  const { computerId = '' } = useParams();
  const computer = useComputer(computerId);

  if (computer.isPending) return <Spinner className="h-8 w-8" label="Loading computer..." />;
  if (computer.isError) {
    if (computer.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <LoadFailure error={computer.error} backTo="/computers" backLabel="Back to computers" />;
  }
  // issue 33: a Keyward DNS device has its own page (no app, no release channel)
  if (isDnsModel(computer.data.modelIdentifier))
    return <DnsDevicePage computerId={computer.data.id} />;
  return <ComputerEditor key={computer.data.id} computer={computer.data} />;
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-sm break-all text-slate-900">{children}</dd>
    </div>
  );
}

function VersionBadge({ computer }: { computer: Device }) {
  const latest = useLatestAppVersions();
  if (!latest.data) return null;
  return isUpToDate(computer.appVersion, latest.data[computer.releaseChannel]) ? (
    <Badge tone="ok">Up to date</Badge>
  ) : (
    <Badge tone="warning">Updates available</Badge>
  );
}

function ComputerEditor({ computer }: { computer: Device }) {
  const [form, setForm] = useState<ComputerForm>(() => computerFormOf(computer));
  const saveComputer = useSaveComputer();
  const channelId = useId();
  const canSave = hasComputerChanged(computer, form) && !saveComputer.isPending;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!canSave) return;
    try {
      await saveComputer.mutateAsync(toSaveComputerInput(computer.id, form));
      setForm((current) => ({ ...current, name: current.name.trim() }));
    } catch {
      // the error toast has told the parent
    }
  }

  return (
    <>
      <PageHeading title={computer.name ?? computer.modelTitle} />
      <form onSubmit={save} className="max-w-3xl space-y-6">
        <Card>
          <div className="flex items-center gap-4">
            <ComputerIcon family={computer.modelFamily} className="h-14 w-14" />
            <TextInput
              label="Name"
              value={form.name}
              onChange={(name) => setForm({ ...form, name })}
              placeholder={computer.modelTitle}
              hint="Leave empty to use the model name."
              maxLength={LIMITS.name}
              autoComplete="off"
              className="min-w-0 flex-1"
            />
          </div>
          <dl className="mt-4 divide-y divide-slate-100">
            <Detail label="Model">{computer.modelTitle}</Detail>
            <Detail label="Serial number">{computer.serialNumber}</Detail>
            <Detail label="Model identifier">{computer.modelIdentifier}</Detail>
            <Detail label="Keyward app version">
              <span className="inline-flex flex-wrap items-center gap-2">
                {computer.appVersion}
                <VersionBadge computer={computer} />
              </span>
            </Detail>
          </dl>
        </Card>

        <Card>
          <label htmlFor={channelId} className="block text-lg font-semibold text-slate-900">
            Release channel
          </label>
          <p className="mt-1 text-sm text-slate-500">
            Stable gets tested releases. Beta and Canary get new versions earlier.
          </p>
          <select
            id={channelId}
            value={form.releaseChannel}
            onChange={(event) =>
              setForm({ ...form, releaseChannel: event.target.value as ReleaseChannel })
            }
            className="mt-3 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none sm:max-w-xs"
          >
            {RELEASE_CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channelLabels[channel]}
              </option>
            ))}
          </select>
        </Card>

        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Children using this computer</h2>
          {computer.users.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">No child is connected to this computer.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100">
              {computer.users.map((user, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: a child with two accounts on one Mac repeats its id
                  key={`${user.id}-${index}`}
                  className="flex items-center justify-between gap-3 py-2"
                >
                  <Link
                    to={`/children/${user.id}`}
                    className="truncate text-sm font-semibold text-violet-700 hover:underline"
                  >
                    {user.name}
                  </Link>
                  <StatusBadge status={user.status} />
                </li>
              ))}
            </ul>
          )}
        </Card>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <LinkButton to="/computers" variant="secondary">
            Back to computers
          </LinkButton>
          <Button type="submit" disabled={!canSave} isLoading={saveComputer.isPending}>
            Save computer
          </Button>
        </div>
      </form>
    </>
  );
}
