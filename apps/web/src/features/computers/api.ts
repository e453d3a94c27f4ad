import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';
import { liveStatusInterval, macStatusesOf } from '../../lib/live-status';

/** Statuses stay live: every 5 s while a Mac of the family is online (lib/live-status.ts). */
export const useComputers = () =>
  useDashboardQuery('GetDevices', undefined, {
    refetchInterval: (computers) => liveStatusInterval(macStatusesOf(computers)),
  });

export const useComputer = (id: string) => useDashboardQuery('GetDevice', id);

export const useSaveComputer = () =>
  useDashboardMutation('SaveDevice', {
    toast: { verb: 'save', entity: 'computer' },
    // children show a computer's custom name too
    invalidates: ['GetDevices', 'GetDevice', 'GetUsers', 'GetUser', 'GetFamilyDevices'],
  });

export const useLatestAppVersions = () =>
  useDashboardQuery('LatestAppVersions', undefined, { staleTime: 5 * 60_000 });
