import { useDashboardQuery } from '../../lib/api/hooks';

export const useChildren = () => useDashboardQuery('GetUsers', undefined);

/** Pending unlock requests for the home page's widget (the newest 2 and a count of the rest). */
export const useUnlockRequestsForWidget = () => useDashboardQuery('GetUnlockRequests', undefined);
