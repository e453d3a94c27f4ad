import { timeAgo } from './wording.ts';

// Issue 33: a Keyward DNS device has no app to report a filter state; what the parent can know is
// when it last asked Keyward a name. It is *Filtering* while it asks (a phone in use asks every few
// minutes), *Not seen for N hours* once it has been quiet for an hour, and a device that was in
// use and stays silent for a day raises a security event (the child may have removed the profile
// or changed the Private DNS setting: it looks exactly like that).

/** A DNS device quiet for this long is no longer shown as filtering. */
export const DNS_QUIET_AFTER_MS = 60 * 60 * 1000;
/** A DNS device in use that stays silent this long raises `dnsDeviceSilent`. */
export const DNS_SILENT_AFTER_MS = 24 * 60 * 60 * 1000;

export type DnsDeviceStatus =
  | { case: 'filtering'; lastQueryAt: string }
  | { case: 'notSeen'; lastQueryAt: string; hours: number }
  | { case: 'neverSeen' };

export function dnsDeviceStatus(lastQueryAt: string | undefined, now: Date): DnsDeviceStatus {
  if (lastQueryAt === undefined) return { case: 'neverSeen' };
  const quietMs = now.getTime() - Date.parse(lastQueryAt);
  if (Number.isNaN(quietMs)) return { case: 'neverSeen' };
  if (quietMs < DNS_QUIET_AFTER_MS) return { case: 'filtering', lastQueryAt };
  return { case: 'notSeen', lastQueryAt, hours: Math.floor(quietMs / (60 * 60 * 1000)) };
}

/** "Filtering", "Not seen for 5 hours", "Not seen for 3 days", "Not seen yet". */
export function dnsStatusLabel(status: DnsDeviceStatus): string {
  switch (status.case) {
    case 'filtering':
      return 'Filtering';
    case 'neverSeen':
      return 'Not seen yet';
    case 'notSeen': {
      if (status.hours >= 48) return `Not seen for ${Math.floor(status.hours / 24)} days`;
      return `Not seen for ${status.hours} ${status.hours === 1 ? 'hour' : 'hours'}`;
    }
  }
}

/** The line under the label: "Last query 3 minutes ago", or what to check when never seen. */
export function dnsStatusDetail(status: DnsDeviceStatus, now: Date): string {
  switch (status.case) {
    case 'filtering':
    case 'notSeen':
      return `Last query ${timeAgo(status.lastQueryAt, now)}`;
    case 'neverSeen':
      return 'No query has reached Keyward from this device yet: finish its setup on the device.';
  }
}

/**
 * What a parent should know about keys DNS cannot enforce, or undefined when there are none.
 * `count` is the number of such keys among the child's keys in force.
 */
export function keysNotForDnsWords(count: number): string | undefined {
  if (count <= 0) return undefined;
  const keys = count === 1 ? '1 of this child’s keys does' : `${count} of this child’s keys do`;
  return `${keys} not apply on a Keyward DNS device. DNS sees only the name of a site (such as example.com), so a key for a page of a site (a path), for one app, or for an IP address cannot open anything here; keys for a whole site or a domain do.`;
}

/** The key wizard's note when every device of the child is a Keyward DNS device. */
export const DNS_ONLY_KEY_NOTE =
  'This child’s devices are all filtered by Keyward DNS, which sees only the names of sites: a key for a whole site or domain works there, but a key for a page of a site (a path), for one app, or for an IP address does not.';

/**
 * The public keychain each kind of DNS device needs to stay online, sync, update and notify
 * (seeded by the server's migration 0025), offered when the parent connects one.
 */
export const DNS_ESSENTIALS_KEYCHAINS = {
  android: {
    id: 'ca7a1090-0000-4000-8000-000000000010',
    name: 'Android essentials',
    why: 'Without it, Android shows “no internet”, and the phone cannot sign in to its Google account, get notifications or update its apps. It opens Google’s background services (and Google search, where Android checks its connection), not YouTube or other sites.',
  },
  ios: {
    id: 'ca7a1090-0000-4000-8000-000000000011',
    name: 'Apple essentials',
    why: 'Without it, the iPhone or iPad cannot get notifications, activate or update. It opens Apple’s background services, not the App Store, iCloud or other sites.',
  },
  macos: {
    id: 'ca7a1090-0000-4000-8000-000000000011',
    name: 'Apple essentials',
    why: 'Without it, the Mac cannot get notifications, activate or update. It opens Apple’s background services, not the App Store, iCloud or other sites.',
  },
  windows: {
    id: 'ca7a1090-0000-4000-8000-000000000012',
    name: 'Windows essentials',
    why: 'Without it, Windows shows “no internet” and stops getting updates and notifications. It opens Windows’ background services, not Microsoft’s websites.',
  },
} as const satisfies Record<string, { id: string; name: string; why: string }>;
