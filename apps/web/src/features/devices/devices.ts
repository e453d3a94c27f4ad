import type { DeviceKind, FamilyDevice } from '@keyward/contract/shared';

// Issue 20: Macs, iPhones and iPads (and later browsers) shown by one card and one page. A Mac
// shared by several children is one device with an entry per child (computer user); an iOS
// device belongs to one child.

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

/** The family's devices, one group per physical device, in the server's order. */
export function groupDevices(devices: readonly FamilyDevice[], kind?: DeviceKind): DeviceGroup[] {
  const groups = new Map<string, DeviceGroup>();
  for (const device of devices) {
    if (kind !== undefined && device.kind !== kind) continue;
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
      "Computers are created automatically when the Keyward Mac app is installed on your child's computer and connected with a connection code.",
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
