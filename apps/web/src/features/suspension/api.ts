import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

export const useSuspendFilterRequest = (id: string) =>
  useDashboardQuery('GetSuspendFilterRequest', id);

// No toast: the page shows the outcome or the error itself.
export const useDecideFilterSuspension = () =>
  useDashboardMutation('DecideFilterSuspensionRequest', {
    invalidates: [
      'GetSuspendFilterRequest',
      'DashboardWidgets',
      'GetUsers',
      'GetUser',
      'GetInbox',
      'GetFamilyDevices',
      'GetIOSDevice',
    ],
  });
