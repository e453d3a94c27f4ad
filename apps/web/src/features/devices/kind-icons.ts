import type { DeviceKind } from '@keyward/contract/shared';
import {
  ComputerDesktopIcon,
  DevicePhoneMobileIcon,
  GlobeAltIcon,
  SignalIcon,
} from '@heroicons/react/24/outline';

/** The generic picture of each kind of device (a list's icon, an empty page's). */
export const DEVICE_KIND_ICONS: Record<DeviceKind, typeof ComputerDesktopIcon> = {
  mac: ComputerDesktopIcon,
  ios: DevicePhoneMobileIcon,
  browser: GlobeAltIcon,
  dns: SignalIcon,
};
