import { useDashboardQuery } from '../../lib/api/hooks';

/** The last 14 days of events on the account and the children's Macs, newest first. */
export const useSecurityEvents = () => useDashboardQuery('SecurityEventsFeed', undefined);
