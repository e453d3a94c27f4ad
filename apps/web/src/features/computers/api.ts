import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

export const useComputers = () => useDashboardQuery('GetDevices', undefined);

export const useComputer = (id: string) => useDashboardQuery('GetDevice', id);

export const useSaveComputer = () =>
  useDashboardMutation('SaveDevice', {
    toast: { verb: 'save', entity: 'computer' },
    // children show a computer's custom name too
    invalidates: ['GetDevices', 'GetDevice', 'GetUsers', 'GetUser'],
  });

export const useLatestAppVersions = () =>
  useDashboardQuery('LatestAppVersions', undefined, { staleTime: 5 * 60_000 });
