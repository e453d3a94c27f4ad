import type { DnsDeviceKind } from '@keyward/contract/dashboard';
import { useReducer, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { QrCode } from '../../components/ui/QrCode';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useCreateDnsDevice } from './api';
import {
  type CreatedDnsDevice,
  chromeDnsPolicies,
  createDnsDeviceInput,
  essentialsFor,
  dnsSetupReducer,
  initialDnsSetup,
  MAX_DNS_DEVICE_NAME,
  windowsDohCommand,
} from '../dns-devices/dns-setup';

// Issue 33: the Connect a device dialog's Keyward DNS kinds: name the device, create it, then the
// steps for that kind with the device's own hostname, URL or configuration profile.

export function DnsDeviceSetup({
  childId,
  childName,
  kind,
}: {
  childId: string;
  childName: string;
  kind: DnsDeviceKind;
}) {
  const [state, dispatch] = useReducer(dnsSetupReducer, initialDnsSetup(childName, kind));
  const { mutateAsync } = useCreateDnsDevice();
  const essentials = essentialsFor(kind);

  const create = async () => {
    if (state.step !== 'naming') return;
    dispatch({ type: 'createRequested' });
    const name = state.name.trim();
    if (name === '' || name.length > MAX_DNS_DEVICE_NAME) return;
    if (state.removalPassword.length > MAX_DNS_DEVICE_NAME) return;
    try {
      const device = await mutateAsync(createDnsDeviceInput(childId, kind, state));
      dispatch({ type: 'created', device });
    } catch (error) {
      dispatch({ type: 'createFailed', message: errorMessage(toPqlError(error)) });
    }
  };

  if (state.step === 'created') {
    return (
      <DnsSteps
        kind={kind}
        childName={childName}
        device={state.device}
        name={state.name}
        hasRemovalPassword={state.removalPassword !== ''}
      />
    );
  }
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <p className="text-sm text-slate-700">
        Keyward DNS filters {childName}'s device through its own settings, with no app to install:
        only what {childName}'s keys unlock resolves. Keys for a page, an app or an IP address do
        not apply to it.
      </p>
      <label className="block text-sm font-medium text-slate-900">
        Device name
        <input
          type="text"
          value={state.name}
          maxLength={MAX_DNS_DEVICE_NAME + 20}
          onChange={(event) => dispatch({ type: 'nameChanged', name: event.target.value })}
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-base"
        />
      </label>
      {essentials && (
        <div className="rounded-lg bg-violet-50 p-3">
          <label className="flex items-start gap-2 text-sm font-medium text-slate-900">
            <input
              type="checkbox"
              checked={state.withEssentials}
              onChange={() => dispatch({ type: 'essentialsToggled' })}
              className="mt-0.5 h-4 w-4 rounded border-slate-300 text-violet-600"
            />
            <span>
              Also give {childName} the {essentials.name} keychain (recommended)
              <span className="mt-1 block font-normal text-slate-600">{essentials.why}</span>
            </span>
          </label>
        </div>
      )}
      {(kind === 'ios' || kind === 'macos') && (
        <label className="block text-sm font-medium text-slate-900">
          Removal password (optional)
          <input
            type="password"
            autoComplete="new-password"
            value={state.removalPassword}
            maxLength={MAX_DNS_DEVICE_NAME}
            onChange={(event) =>
              dispatch({ type: 'removalPasswordChanged', password: event.target.value })
            }
            className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-base"
          />
          <span className="mt-1 block font-normal text-slate-500">
            The {kind === 'ios' ? 'iPhone or iPad' : 'Mac'} asks it before the profile can be
            removed. It is written in the profile, so the profile's link opens it for an hour; after
            that, download it again from the device's page.
          </span>
        </label>
      )}
      {state.step === 'naming' && state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      <Button type="submit" disabled={state.step === 'creating'}>
        {state.step === 'creating' ? 'Creating…' : 'Create the device'}
      </Button>
    </form>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [isCopied, setIsCopied] = useState(false);
  return (
    <div>
      <p className="text-xs font-semibold tracking-wide text-violet-700 uppercase">{label}</p>
      <div className="mt-1 flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-violet-50 px-2 py-1 text-sm">
          {value}
        </code>
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setIsCopied(true),
              () => setIsCopied(false),
            )
          }
        >
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}

function DnsSteps({
  kind,
  childName,
  device,
  name,
  hasRemovalPassword,
}: {
  kind: DnsDeviceKind;
  childName: string;
  device: CreatedDnsDevice;
  name: string;
  hasRemovalPassword: boolean;
}) {
  const intro = (
    <p role="status" className="text-base font-semibold text-slate-900">
      {name} is ready. On {childName}'s device:
    </p>
  );
  switch (kind) {
    case 'android':
      return (
        <div className="space-y-3">
          {intro}
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
            <li>Open Settings → Network &amp; internet → Private DNS.</li>
            <li>Choose Private DNS provider hostname and enter this hostname, then Save:</li>
          </ol>
          <CopyField label="Private DNS hostname" value={device.dotHostname} />
          <QrCode
            value={device.dotHostname}
            label="QR code of the Private DNS hostname"
            size={160}
          />
        </div>
      );
    case 'ios':
    case 'macos':
      return (
        <div className="space-y-3">
          {intro}
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
            <li>
              Open this link in Safari on the {kind === 'ios' ? 'iPhone or iPad' : 'Mac'} (scan the
              code, or send the link), and allow the download.
            </li>
            <li>
              {kind === 'ios'
                ? 'Open Settings → Profile Downloaded → Install, and enter the passcode.'
                : 'Open System Settings, find Profiles (under Privacy & Security, or General → Device Management) and install Keyward DNS.'}
            </li>
          </ol>
          {device.appleProfileUrl && (
            <>
              <p>
                <a
                  href={device.appleProfileUrl}
                  className="font-medium text-violet-700 underline hover:text-violet-900"
                >
                  Download the configuration profile
                </a>
              </p>
              <QrCode
                value={device.appleProfileUrl}
                label="QR code of the configuration profile"
                size={160}
              />
            </>
          )}
          <p className="text-xs text-slate-500">
            {hasRemovalPassword
              ? `The device asks your removal password before the profile can be removed. This link opens the profile for an hour; after that, download it again from the device's page.`
              : `${childName} can remove the profile; if the device stops asking Keyward, you will see it as not seen.`}
          </p>
        </div>
      );
    case 'windows':
      return (
        <div className="space-y-3">
          {intro}
          <p className="text-sm text-slate-700">
            In PowerShell as an administrator, give Windows 11 the device's encrypted DNS address,
            then set the network adapter's DNS server to the same server address:
          </p>
          <CopyField label="PowerShell" value={windowsDohCommand(device.dohUrl)} />
          <p className="text-sm text-slate-700">For Chrome or a Chromebook, these policies:</p>
          <CopyField label="Chrome policies" value={chromeDnsPolicies(device.dohUrl)} />
        </div>
      );
    case 'other':
      return (
        <div className="space-y-3">
          {intro}
          <p className="text-sm text-slate-700">
            Set the device's (or router's) encrypted DNS to one of these. A router filters every
            device behind it as this one device.
          </p>
          <CopyField label="DNS over HTTPS" value={device.dohUrl} />
          <CopyField label="DNS over TLS hostname" value={device.dotHostname} />
        </div>
      );
  }
}
