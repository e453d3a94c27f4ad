import type { DnsDeviceKind } from '@keyward/contract/dashboard';

// Issue 33: connecting a device to Keyward DNS from the Connect a device dialog. The parent names
// the device, Keyward creates it (CreateDnsDevice), and the dialog shows that kind's steps with
// the device's own hostname, URL or profile. Screen logic as a reducer of named events.

export const DNS_DEVICE_KINDS: readonly { kind: DnsDeviceKind; label: string; noun: string }[] = [
  { kind: 'android', label: 'Android phone or tablet', noun: 'Android phone or tablet' },
  { kind: 'ios', label: 'iPhone or iPad, no app', noun: 'iPhone or iPad' },
  { kind: 'macos', label: 'Mac, no app', noun: 'Mac' },
  { kind: 'windows', label: 'Windows computer', noun: 'Windows computer' },
  { kind: 'other', label: 'Other device or router', noun: 'device' },
];

export const MAX_DNS_DEVICE_NAME = 100;

export interface CreatedDnsDevice {
  id: string;
  dohUrl: string;
  dotHostname: string;
  appleProfileUrl?: string | undefined;
}

export type DnsSetupState =
  | { step: 'naming'; name: string; error?: string }
  | { step: 'creating'; name: string }
  | { step: 'created'; name: string; device: CreatedDnsDevice };

export type DnsSetupEvent =
  | { type: 'nameChanged'; name: string }
  | { type: 'createRequested' }
  | { type: 'created'; device: CreatedDnsDevice }
  | { type: 'createFailed'; message: string };

export function initialDnsSetup(childName: string, kind: DnsDeviceKind): DnsSetupState {
  const noun = DNS_DEVICE_KINDS.find((entry) => entry.kind === kind)?.noun ?? 'device';
  return { step: 'naming', name: `${childName}'s ${noun}`.slice(0, MAX_DNS_DEVICE_NAME) };
}

/** What is wrong with a device name, in words; undefined when it is fine. */
export function dnsDeviceNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the device a name, so you know it in the list.';
  if (trimmed.length > MAX_DNS_DEVICE_NAME) {
    return `A device's name can be at most ${MAX_DNS_DEVICE_NAME} characters.`;
  }
  return undefined;
}

export function dnsSetupReducer(state: DnsSetupState, event: DnsSetupEvent): DnsSetupState {
  switch (event.type) {
    case 'nameChanged':
      return state.step === 'naming' ? { step: 'naming', name: event.name } : state;
    case 'createRequested': {
      if (state.step !== 'naming') return state;
      const error = dnsDeviceNameProblem(state.name);
      return error ? { ...state, error } : { step: 'creating', name: state.name.trim() };
    }
    case 'created':
      return state.step === 'creating'
        ? { step: 'created', name: state.name, device: event.device }
        : state;
    case 'createFailed':
      return state.step === 'creating'
        ? { step: 'naming', name: state.name, error: event.message }
        : state;
  }
}

/** Windows 11 (PowerShell as administrator): the device's DoH template for the server's address. */
export function windowsDohCommand(dohUrl: string): string {
  return `Add-DnsClientDohServerAddress -ServerAddress <server IP> -DohTemplate ${dohUrl} -AllowFallbackToUdp $false -AutoUpgrade $true`;
}

/** Chrome and ChromeOS policies that send every lookup to the device's DoH URL, failing closed. */
export function chromeDnsPolicies(dohUrl: string): string {
  return JSON.stringify(
    { DnsOverHttpsMode: 'secure', DnsOverHttpsTemplates: `${dohUrl}{?dns}` },
    null,
    2,
  );
}
