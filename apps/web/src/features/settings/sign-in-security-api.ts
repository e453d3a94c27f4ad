import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

// Settings → Sign-in security and Download my data (issue 12). The section shows its own progress
// and errors, so no toasts.
export const useSignInSecurity = () => useDashboardQuery('GetSignInSecurity', undefined);
export const useStartTotpEnrolment = () => useDashboardMutation('StartTotpEnrolment');
export const useConfirmTotpEnrolment = () =>
  useDashboardMutation('ConfirmTotpEnrolment', { invalidates: ['GetSignInSecurity'] });
export const useDisableTotp = () =>
  useDashboardMutation('DisableTotp', { invalidates: ['GetSignInSecurity'] });
export const useRemovePasskey = () =>
  useDashboardMutation('RemovePasskey', { invalidates: ['GetSignInSecurity'] });

export const useRequestDataExport = () => useDashboardMutation('RequestDataExport');
/** Polled every second while the ZIP is being built. */
export const useDataExport = (exportId: string | undefined) =>
  useDashboardQuery(
    'GetDataExport',
    { exportId: exportId ?? '' },
    {
      enabled: exportId !== undefined,
      refetchInterval: (data) =>
        data === undefined || data.status === 'pending' || data.status === 'building'
          ? 1000
          : false,
    },
  );
