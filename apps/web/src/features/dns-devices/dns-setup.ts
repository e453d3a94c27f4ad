import type { DnsDeviceKind } from '@keyward/contract/dashboard';
import { DNS_ESSENTIALS_KEYCHAINS } from '@keyward/domain/dns-status';

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

/** What the parent chose besides the name (issue 33): the essentials keychain, a removal password. */
export interface DnsSetupOptions {
  /** give the child the kind's essentials keychain (Android, Apple, Windows) */
  withEssentials: boolean;
  /** ios and macos: the profile's removal password ('' for none) */
  removalPassword: string;
}

export type DnsSetupState = DnsSetupOptions &
  (
    | { step: 'naming'; name: string; error?: string }
    | { step: 'creating'; name: string }
    | { step: 'created'; name: string; device: CreatedDnsDevice }
  );

export type DnsSetupEvent =
  | { type: 'nameChanged'; name: string }
  | { type: 'essentialsToggled' }
  | { type: 'removalPasswordChanged'; password: string }
  | { type: 'createRequested' }
  | { type: 'created'; device: CreatedDnsDevice }
  | { type: 'createFailed'; message: string };

const isApple = (kind: DnsDeviceKind) => kind === 'ios' || kind === 'macos';

/** The essentials keychain offered for this kind, or undefined (other devices, routers). */
export function essentialsFor(kind: DnsDeviceKind) {
  return kind === 'other' ? undefined : DNS_ESSENTIALS_KEYCHAINS[kind];
}

/** CreateDnsDevice's input from what the parent chose. */
export function createDnsDeviceInput(childId: string, kind: DnsDeviceKind, state: DnsSetupState) {
  const password = state.removalPassword;
  return {
    childId,
    kind,
    name: state.name.trim(),
    ...(essentialsFor(kind) && state.withEssentials ? { withEssentials: true } : {}),
    ...(isApple(kind) && password !== '' ? { removalPassword: password } : {}),
  };
}

export function initialDnsSetup(childName: string, kind: DnsDeviceKind): DnsSetupState {
  const noun = DNS_DEVICE_KINDS.find((entry) => entry.kind === kind)?.noun ?? 'device';
  return {
    step: 'naming',
    name: `${childName}'s ${noun}`.slice(0, MAX_DNS_DEVICE_NAME),
    withEssentials: essentialsFor(kind) !== undefined,
    removalPassword: '',
  };
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
  const options = { withEssentials: state.withEssentials, removalPassword: state.removalPassword };
  switch (event.type) {
    case 'nameChanged':
      return state.step === 'naming' ? { ...options, step: 'naming', name: event.name } : state;
    case 'essentialsToggled':
      return state.step === 'naming' ? { ...state, withEssentials: !state.withEssentials } : state;
    case 'removalPasswordChanged':
      return state.step === 'naming' ? { ...state, removalPassword: event.password } : state;
    case 'createRequested': {
      if (state.step !== 'naming') return state;
      const error =
        dnsDeviceNameProblem(state.name) ??
        (state.removalPassword.length > MAX_DNS_DEVICE_NAME
          ? `A removal password can be at most ${MAX_DNS_DEVICE_NAME} characters.`
          : undefined);
      return error
        ? { ...state, error }
        : { ...options, step: 'creating', name: state.name.trim() };
    }
    case 'created':
      return state.step === 'creating'
        ? { ...options, step: 'created', name: state.name, device: event.device }
        : state;
    case 'createFailed':
      return state.step === 'creating'
        ? { ...options, step: 'naming', name: state.name, error: event.message }
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
