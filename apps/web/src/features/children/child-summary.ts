import type { ChildComputerStatus, User } from '@keyward/contract/shared';
import { childStatus } from '@keyward/domain/status';

export type ChildSummary = {
  numKeychains: number;
  numKeys: number;
  numDevices: number;
  status: ChildComputerStatus;
};

/** wire-contract §4 `User`: the list view's counts and status are derived by the dashboard. */
export function summariseChild(child: User): ChildSummary {
  return {
    numKeychains: child.keychains.length,
    numKeys: child.keychains.reduce((sum, keychain) => sum + keychain.numKeys, 0),
    numDevices: child.devices.length,
    status: childStatus(child.devices.map((device) => device.status)),
  };
}

/** The computer's custom name when it has one, else its model, e.g. '14" MacBook Pro (M3, 2023)'. */
export function computerName(device: { customName?: string; modelTitle: string }): string {
  return device.customName?.trim() || device.modelTitle;
}
