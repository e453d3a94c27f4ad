import type { DnsDeviceKind } from '@keyward/contract/dashboard';
import type { UserDevice } from '@keyward/contract/shared';
import { CheckCircleIcon, ComputerDesktopIcon } from '@heroicons/react/24/outline';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { Spinner } from '../../components/ui/Spinner';
import { dashboardQueryKey } from '../../lib/api/hooks';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useIosDevices } from '../ios-devices/api';
import { InstallOptions } from './InstallOptions';
import { useChild, useCreateConnectionCode } from './api';
import { DnsDeviceSetup } from './DnsDeviceSetup';
import { DNS_DEVICE_KINDS } from '../dns-devices/dns-setup';

/** How often the open dialog asks whether the computer has connected. */
export const CONNECTION_POLL_MS = 2000;

/** Where the server serves Keyward for Chrome, with its own address filled in (issue 22). */
export const CHROME_DOWNLOAD_PATH = '/downloads/keyward-chrome.zip';

/** The kinds of device one code connects, and (issue 33) the Keyward DNS kinds, which need none. */
export type ConnectTarget = 'mac' | 'ios' | 'chrome' | `dns:${DnsDeviceKind}`;

const TARGETS: readonly { value: ConnectTarget; label: string }[] = [
  { value: 'mac', label: 'Mac' },
  { value: 'ios', label: 'iPhone or iPad' },
  { value: 'chrome', label: 'Chrome browser' },
];

const DNS_TARGETS: readonly { value: ConnectTarget; label: string }[] = DNS_DEVICE_KINDS.map(
  (entry) => ({ value: `dns:${entry.kind}` as const, label: entry.label }),
);

function dnsKindOf(target: ConnectTarget): DnsDeviceKind | undefined {
  return target.startsWith('dns:') ? (target.slice(4) as DnsDeviceKind) : undefined;
}

/** True for a browser with Keyward for Chrome (its model identifier is `browser:…`). */
export function isBrowserDevice(device: Pick<UserDevice, 'modelIdentifier'>): boolean {
  return device.modelIdentifier.startsWith('browser:');
}

/** True for a device filtered by Keyward DNS (its model identifier is `dns:…`, issue 33). */
export function isDnsDevice(device: Pick<UserDevice, 'modelIdentifier'>): boolean {
  return device.modelIdentifier.startsWith('dns:');
}

type CodeRequest =
  | { status: 'idle' }
  | { status: 'loading' }
  | {
      status: 'succeeded';
      code: number;
      knownComputerIds: readonly string[];
      /** The parent's iOS devices before the code; null when they could not be read. */
      knownIosDeviceIds: readonly string[] | null;
    }
  | { status: 'failed'; message: string };

type ConnectionCodeDialogProps = {
  isOpen: boolean;
  childId: string;
  childName: string;
  onClose: () => void;
};

/** Gets a code for the Mac (or iOS) app and shows the computer or iPad as soon as it connects. */
export function ConnectionCodeDialog({ isOpen, ...props }: ConnectionCodeDialogProps) {
  // Mounted only while open, so every opening asks for a fresh code.
  return isOpen ? <ConnectionCodeDialogContent {...props} /> : null;
}

function ConnectionCodeDialogContent({
  childId,
  childName,
  onClose,
}: Omit<ConnectionCodeDialogProps, 'isOpen'>) {
  const [request, setRequest] = useState<CodeRequest>({ status: 'idle' });
  const [target, setTarget] = useState<ConnectTarget>('mac');
  const queryClient = useQueryClient();
  const createCode = useCreateConnectionCode();

  const knownIds = request.status === 'succeeded' ? request.knownComputerIds : null;
  const isWaiting = knownIds !== null;
  const child = useChild(childId, { refetchInterval: isWaiting ? CONNECTION_POLL_MS : false });
  const connected: UserDevice | undefined = knownIds
    ? child.data?.devices.find(
        // a Keyward DNS device created in this dialog is not the code's connection
        (device) => !knownIds.includes(device.id) && !isDnsDevice(device),
      )
    : undefined;
  const knownIosIds = request.status === 'succeeded' ? request.knownIosDeviceIds : null;
  const iosDevices = useIosDevices({
    refetchInterval: knownIosIds !== null && !connected ? CONNECTION_POLL_MS : false,
  });
  const connectedIos =
    knownIosIds !== null && !connected && Array.isArray(iosDevices.data)
      ? iosDevices.data.find(
          (device) => device.childId === childId && !knownIosIds.includes(device.id),
        )
      : undefined;

  const { refetch } = child;
  const { refetch: refetchIosDevices } = iosDevices;
  const { mutateAsync } = createCode;
  const requestCode = useCallback(async () => {
    setRequest({ status: 'loading' });
    // The computers the child has before the code exists: any other one is the new connection.
    const before = await refetch({ cancelRefetch: false });
    if (before.isError || !before.data) {
      setRequest({ status: 'failed', message: errorMessage(toPqlError(before.error)) });
      return;
    }
    const iosBefore = await refetchIosDevices({ cancelRefetch: false });
    const knownIosDeviceIds =
      !iosBefore.isError && Array.isArray(iosBefore.data)
        ? iosBefore.data.map((device) => device.id)
        : null;
    try {
      const { code } = await mutateAsync({ userId: childId });
      const knownComputerIds = before.data.devices.map((device) => device.id);
      setRequest({ status: 'succeeded', code, knownComputerIds, knownIosDeviceIds });
    } catch (error) {
      setRequest({ status: 'failed', message: errorMessage(toPqlError(error)) });
    }
  }, [childId, refetch, refetchIosDevices, mutateAsync]);

  const hasRequested = useRef(false);
  useEffect(() => {
    if (hasRequested.current) return;
    hasRequested.current = true;
    void requestCode();
  }, [requestCode]);

  const connectedId = connected?.id ?? connectedIos?.id;
  // Again when the new computer's status changes (its first sign of life after connecting), so the
  // pages behind the dialog read "Filter on" at once, not "Offline" until their next slow poll.
  const connectedStatus = connected?.status.case;
  // biome-ignore lint/correctness/useExhaustiveDependencies: connectedStatus re-runs it on purpose
  useEffect(() => {
    if (!connectedId) return;
    for (const op of [
      'GetUsers',
      'GetDevices',
      'GetDevice',
      'DashboardWidgets',
      'IOSDevices',
      'GetFamilyDevices',
    ] as const) {
      void queryClient.invalidateQueries({ queryKey: dashboardQueryKey(op) });
    }
  }, [connectedId, connectedStatus, queryClient]);

  return (
    <Modal
      isOpen
      title={
        connected
          ? isBrowserDevice(connected)
            ? 'Browser connected'
            : 'Computer connected'
          : connectedIos
            ? `${connectedIos.deviceType} connected`
            : 'Connect a device'
      }
      onClose={onClose}
      icon={
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-violet-100">
          {connected || connectedIos ? (
            <CheckCircleIcon className="h-6 w-6 text-violet-600" aria-hidden="true" />
          ) : (
            <ComputerDesktopIcon className="h-6 w-6 text-violet-600" aria-hidden="true" />
          )}
        </span>
      }
      actions={
        <>
          {request.status === 'failed' && (
            <Button variant="secondary" onClick={() => void requestCode()}>
              Try again
            </Button>
          )}
          <Button variant={connected || connectedIos ? 'primary' : 'secondary'} onClick={onClose}>
            {connected || connectedIos ? 'Done' : 'Close'}
          </Button>
        </>
      }
    >
      {(request.status === 'idle' || request.status === 'loading') && (
        <div className="py-6">
          <Spinner className="h-6 w-6" label="Getting a connection code..." />
        </div>
      )}
      {request.status === 'failed' && (
        <p role="alert" className="text-red-700">
          {request.message}
        </p>
      )}
      {request.status === 'succeeded' && connected && (
        <p role="status" className="py-4 text-base">
          <span className="block text-lg font-semibold text-slate-900">
            {connected.modelTitle} connected!
          </span>
          <span className="mt-1 block">
            {childName}'s {isBrowserDevice(connected) ? 'browser' : 'computer'} is now connected to
            Keyward.
          </span>
        </p>
      )}
      {request.status === 'succeeded' && connectedIos && (
        <p role="status" className="py-4 text-base">
          <span className="block text-lg font-semibold text-slate-900">
            {connectedIos.deviceType} connected!
          </span>
          <span className="mt-1 block">
            {childName}'s {connectedIos.deviceType} is now connected to Keyward.
          </span>
        </p>
      )}
      {request.status === 'succeeded' && !connected && !connectedIos && (
        <div className="space-y-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">What are you connecting?</legend>
            <TargetChoices options={TARGETS} target={target} onChange={setTarget} />
            <p className="mt-3 text-xs text-slate-600">
              Or, with no app, through encrypted DNS (Keyward DNS):
            </p>
            <TargetChoices options={DNS_TARGETS} target={target} onChange={setTarget} />
          </fieldset>
          {dnsKindOf(target) ? (
            <DnsDeviceSetup
              key={target}
              childId={childId}
              childName={childName}
              kind={dnsKindOf(target) as DnsDeviceKind}
            />
          ) : (
            <CodeSteps target={target} childName={childName} code={request.code} />
          )}
        </div>
      )}
    </Modal>
  );
}

function TargetChoices({
  options,
  target,
  onChange,
}: {
  options: readonly { value: ConnectTarget; label: string }[];
  target: ConnectTarget;
  onChange: (target: ConnectTarget) => void;
}) {
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      {options.map((option) => (
        <label
          key={option.value}
          className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 text-sm has-[:checked]:border-violet-600 has-[:checked]:bg-violet-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-violet-500"
        >
          <input
            type="radio"
            name="connect-target"
            value={option.value}
            checked={target === option.value}
            onChange={() => onChange(option.value)}
            className="h-4 w-4 accent-violet-600"
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}

function CodeSteps({
  target,
  childName,
  code,
}: {
  target: ConnectTarget;
  childName: string;
  code: number;
}) {
  return (
    <>
      <ConnectSteps target={target} childName={childName} />
      <div className="rounded-xl bg-violet-50 py-4 text-center">
        <p className="text-xs font-semibold tracking-wide text-violet-700 uppercase">
          Connection code
        </p>
        <p className="mt-1 pl-[0.3em] font-mono text-4xl font-bold tracking-[0.3em] text-violet-800 sm:text-5xl">
          {String(code).padStart(6, '0')}
        </p>
      </div>
      <p className="text-xs text-slate-500">
        One code connects one device. It works once and expires in an hour.
      </p>
      <Spinner className="h-4 w-4" label="Waiting for the device to connect..." />
    </>
  );
}

/** What to do on the child's device with the code, for each kind of device. */
function ConnectSteps({ target, childName }: { target: ConnectTarget; childName: string }) {
  switch (target) {
    case 'mac':
      return (
        <div className="space-y-2">
          <p>
            What you can install on {childName}'s Mac today (Keyward has no Mac app of its own):
          </p>
          <InstallOptions target="mac" />
          <p>Then enter this connection code in it:</p>
        </div>
      );
    case 'ios':
      return (
        <div className="space-y-2">
          <p>What you can install on {childName}'s iPhone or iPad today:</p>
          <InstallOptions target="ios" />
          <p>Then enter this connection code in it:</p>
        </div>
      );
    default:
      return (
        <div className="space-y-2">
          <p>
            For a Chromebook, or a Windows or Linux computer: Keyward for Chrome filters the browser{' '}
            {childName} uses (Chrome, Edge or another Chromium browser). So that {childName} cannot
            remove it,{' '}
            <a
              href="/help/chrome-filter"
              target="_blank"
              rel="noreferrer"
              className="font-medium text-violet-700 underline hover:text-violet-900"
            >
              install it by policy
            </a>
            .
          </p>
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
            <li>
              <a
                href={CHROME_DOWNLOAD_PATH}
                download
                className="font-medium text-violet-700 underline hover:text-violet-900"
              >
                Download Keyward for Chrome
              </a>{' '}
              and unzip it.
            </li>
            <li>
              Open <code>chrome://extensions</code>, turn on Developer mode, choose Load unpacked
              and pick the unzipped folder.
            </li>
            <li>On the Keyward page that opens, enter this connection code:</li>
          </ol>
        </div>
      );
  }
}
