import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

export const useIosDevices = (options: { refetchInterval?: number | false } = {}) =>
  useDashboardQuery('IOSDevices', undefined, options);

export const useIosDevice = (id: string) => useDashboardQuery('GetIOSDevice', id);

export const useUpdateIosDevice = () =>
  useDashboardMutation('UpdateIOSDevice', {
    toast: { verb: 'save', entity: 'settings' },
    invalidates: ['GetIOSDevice'],
  });

export const useUpsertBlockRule = () =>
  useDashboardMutation('UpsertBlockRule', {
    toast: { verb: 'save', entity: 'block rule' },
    invalidates: ['GetIOSDevice'],
  });

export const useDeleteBlockRule = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'block rule' },
    invalidates: ['GetIOSDevice'],
  });
