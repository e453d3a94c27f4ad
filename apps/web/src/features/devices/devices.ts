import type { DeviceKind, FamilyDevice } from '@keyward/contract/shared';
import { DNS_ONLY_KEY_NOTE } from '@keyward/domain/dns-status';

// Issue 20: Macs, iPhones and iPads, and browsers with Keyward for Chrome, shown by one card and
// one page. A Mac shared by several children is one device with an entry per child (computer
// user); an iOS device and a browser belong to one child.

export type DeviceGroup = {
  /** the device's page, which also identifies it */
  path: string;
  kind: DeviceKind;
  name: string;
  model: string;
  /** one entry per child using it */
  entries: FamilyDevice[];
  pendingRequests: number;
};

/** The family's devices (of these kinds), one group per physical device, in the server's order. */
export function groupDevices(
  devices: readonly FamilyDevice[],
  kinds?: readonly DeviceKind[],
): DeviceGroup[] {
  const groups = new Map<string, DeviceGroup>();
  for (const device of devices) {
    if (kinds !== undefined && !kinds.includes(device.kind)) continue;
    const group = groups.get(device.path);
    if (group) {
      group.entries.push(device);
      group.pendingRequests += device.pendingRequests;
    } else {
      groups.set(device.path, {
        path: device.path,
        kind: device.kind,
        name: device.name,
        model: device.model,
        entries: [device],
        pendingRequests: device.pendingRequests,
      });
    }
  }
  return [...groups.values()];
}

/** What each kind of device is called on the dashboard. */
export const DEVICE_KIND_WORDS: Record<
  DeviceKind,
  { title: string; empty: string; emptyDescription: string; action: string }
> = {
  mac: {
    title: 'Computers',
    empty: 'No computers',
    emptyDescription:
      "Computers appear here once a filter on your child's device (Keyward for Chrome, or the Mac app Keyward works with) is connected with a connection code.",
    action: 'Edit',
  },
  browser: {
    title: 'Browsers',
    empty: 'No browsers',
    emptyDescription:
      "A browser appears here once Keyward for Chrome is connected with a connection code from a child's card.",
    action: 'Edit',
  },
  dns: {
    title: 'Keyward DNS devices',
    empty: 'No Keyward DNS devices',
    emptyDescription:
      "A phone, tablet or computer filtered by Keyward DNS appears here once it is created from a child's Connect a device dialog.",
    action: 'Edit',
  },
  ios: {
    title: 'iOS devices',
    empty: 'No iOS devices',
    emptyDescription:
      "An iPhone or iPad appears here once the Keyward iOS app is connected with a connection code from a child's card.",
    action: 'Settings',
  },
};

/**
 * The devices each devices page lists: `/computers` has the Macs, the browsers (a browser with
 * Keyward for Chrome runs on a computer: a Windows PC, a Chromebook) and the Keyward DNS devices
 * (computers of kind `dns`), `/ios-devices` the iPhones and iPads with the Keyward app.
 */
export const DEVICES_PAGES = {
  mac: ['mac', 'browser', 'dns'],
  ios: ['ios'],
} as const satisfies Record<string, readonly DeviceKind[]>;

export type DevicesPageKind = keyof typeof DEVICES_PAGES;

/**
 * Issue 33: the key wizard's note for a child whose devices are all Keyward DNS devices (DNS sees
 * only names: a path, an app or an IP address key does nothing there); undefined otherwise.
 */
export function dnsOnlyKeyNote(
  devices: readonly Pick<FamilyDevice, 'kind' | 'childId'>[],
  childId: string,
): string | undefined {
  const own = devices.filter((device) => device.childId === childId);
  return own.length > 0 && own.every((device) => device.kind === 'dns')
    ? DNS_ONLY_KEY_NOTE
    : undefined;
}
