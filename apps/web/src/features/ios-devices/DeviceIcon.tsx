import { DevicePhoneMobileIcon, DeviceTabletIcon } from '@heroicons/react/24/outline';
import { cx } from '../../components/ui/cx';

/** An iPad shows a tablet, anything else a phone. */
export function IosDeviceIcon({
  deviceType,
  className,
}: {
  deviceType: string;
  className?: string;
}) {
  const Icon = /ipad/i.test(deviceType) ? DeviceTabletIcon : DevicePhoneMobileIcon;
  return <Icon className={cx('shrink-0 text-violet-600', className)} aria-hidden="true" />;
}
