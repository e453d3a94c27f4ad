import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

/** Issue 34: where the child's time went; polled every minute while the page is open. */
export const useScreenTime = (childId: string) =>
  useDashboardQuery('GetScreenTime', { childId }, { refetchInterval: 60_000 });

export const useSaveScreenTime = () =>
  useDashboardMutation('SaveScreenTime', {
    toast: { verb: 'save', entity: 'screen time' },
    invalidates: ['GetUser', 'GetUsers', 'GetScreenTime'],
  });

export const usePauseInternet = () =>
  useDashboardMutation('PauseInternet', {
    toast: { verb: 'pause', entity: 'internet' },
    invalidates: ['GetUser', 'GetUsers'],
  });

export const useResumeInternet = () =>
  useDashboardMutation('ResumeInternet', {
    toast: { verb: 'resume', entity: 'internet' },
    invalidates: ['GetUser', 'GetUsers'],
  });

export const useDecideMoreTime = () =>
  useDashboardMutation('DecideMoreTimeRequest', {
    invalidates: ['GetInbox', 'GetScreenTime'],
  });

/** The children with their screen-time settings (the home page's Pause internet). */
export const useChildrenScreenTime = () => useDashboardQuery('GetUsers', undefined);
