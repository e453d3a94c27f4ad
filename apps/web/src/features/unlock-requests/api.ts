import type { DashboardOperation } from '@keyward/contract/dashboard';
import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

const REQUEST_READS: DashboardOperation[] = [
  'GetUnlockRequests',
  'GetUserUnlockRequests',
  'GetUnlockRequest',
  'DashboardWidgets',
];

export const useUnlockRequests = (options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetUnlockRequests', undefined, options);

export const useChildUnlockRequests = (childId: string, options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetUserUnlockRequests', childId, options);

export const useUnlockRequest = (id: string) => useDashboardQuery('GetUnlockRequest', id);

export const useChildName = (childId: string, options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetUser', childId, options);

/** The parent's own keychains: the new key of an accepted request goes into one of them. */
export const useOwnKeychains = () => useDashboardQuery('GetAdminKeychains', undefined);

// No toasts: the accept and deny screens show their own error screens.
export const useUpdateUnlockRequest = () =>
  useDashboardMutation('UpdateUnlockRequest', { invalidates: REQUEST_READS });

export const useSaveRequestKey = () =>
  useDashboardMutation('SaveKey', {
    invalidates: ['GetAdminKeychains', 'GetAdminKeychain', 'GetUsers', 'GetUser'],
  });
