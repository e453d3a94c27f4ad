import type { DashboardOperation } from '@keyward/contract/dashboard';
import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

// Every read that shows keychains, keys or their counts.
const KEYCHAIN_READS: DashboardOperation[] = [
  'GetAdminKeychains',
  'GetAdminKeychain',
  'GetSelectableKeychains',
  'GetUsers',
  'GetUser',
  'DashboardWidgets',
];

export const useAdminKeychains = () => useDashboardQuery('GetAdminKeychains', undefined);

export const useAdminKeychain = (id: string, options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetAdminKeychain', id, options);

export const useSelectableKeychains = (options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetSelectableKeychains', undefined, options);

export const useSaveKeychain = () =>
  useDashboardMutation('SaveKeychain', {
    toast: { verb: 'save', entity: 'keychain' },
    invalidates: KEYCHAIN_READS,
  });

// Not GetAdminKeychain: the deleted keychain's page may still be mounted while caches refresh.
export const useDeleteKeychain = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'keychain' },
    invalidates: KEYCHAIN_READS.filter((op) => op !== 'GetAdminKeychain'),
  });

export const useDeleteKey = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'key' },
    invalidates: KEYCHAIN_READS,
  });

export const useToggleChildKeychain = () =>
  useDashboardMutation('ToggleChildKeychain', {
    toast: { verb: 'update', entity: 'keychain' },
    invalidates: ['GetAdminKeychains', 'GetUsers', 'GetUser', 'DashboardWidgets'],
  });

export const useRequestPublicKeychain = () => useDashboardMutation('RequestPublicKeychain');
