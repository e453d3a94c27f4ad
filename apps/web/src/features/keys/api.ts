import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

export const useSaveKey = () =>
  useDashboardMutation('SaveKey', {
    toast: { verb: 'save', entity: 'key' },
    invalidates: [
      'GetAdminKeychains',
      'GetAdminKeychain',
      'GetSelectableKeychains',
      'GetUsers',
      'GetUser',
      'DashboardWidgets',
    ],
  });

/** The catalogue of known Mac apps rarely changes: keep it for the session. */
export const useIdentifiedApps = (options: { enabled?: boolean } = {}) =>
  useDashboardQuery('GetIdentifiedApps', undefined, { ...options, staleTime: Infinity });
