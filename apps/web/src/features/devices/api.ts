import { useDashboardQuery } from '../../lib/api/hooks';
import { liveStatusInterval } from '../../lib/live-status';

/** Every device of the family, of every kind; statuses stay live like the other pages'. */
export const useFamilyDevices = () =>
  useDashboardQuery('GetFamilyDevices', undefined, {
    refetchInterval: (devices) =>
      liveStatusInterval(
        Array.isArray(devices)
          ? devices.flatMap((device) => (device.status ? [device.status] : []))
          : undefined,
      ),
  });
