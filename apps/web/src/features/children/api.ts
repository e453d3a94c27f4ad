import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

export const useChild = (id: string, options: { refetchInterval?: number | false } = {}) =>
  useDashboardQuery('GetUser', id, options);

export const useSaveChild = () =>
  useDashboardMutation('SaveUser', {
    toast: { verb: 'save', entity: 'child' },
    invalidates: ['GetUsers', 'GetUser', 'DashboardWidgets', 'GetFamilyDevices', 'GetInbox'],
  });

// Not GetUser: the deleted child's page is still mounted while the caches refresh.
export const useDeleteChild = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'child' },
    invalidates: ['GetUsers', 'GetDevices', 'DashboardWidgets', 'GetFamilyDevices', 'GetInbox'],
  });

/** Unlinks one computer from a child (DeleteEntity_v2 type 'computerUser'). */
export const useDeleteConnection = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'connection' },
    invalidates: [
      'GetUser',
      'GetUsers',
      'GetDevices',
      'GetDevice',
      'DashboardWidgets',
      'GetFamilyDevices',
      'GetInbox',
    ],
  });

export const useCreateConnectionCode = () => useDashboardMutation('CreatePendingAppConnection');

/** Issue 33: a device filtered by Keyward DNS (a computer of kind `dns`). */
export const useCreateDnsDevice = () =>
  useDashboardMutation('CreateDnsDevice', {
    invalidates: ['GetUser', 'GetUsers', 'GetDevices', 'DashboardWidgets', 'GetFamilyDevices'],
  });
