import { useDashboardQuery } from './api/hooks';
import { liveStatusInterval, macStatusesOf } from './live-status';

// The family's children (GetUsers), as every page that lists them reads them: the children's own
// pages and the keychains page that assigns keychains to them share this one query.

/** Statuses stay live: every 5 s while a Mac of the family is online (lib/live-status.ts). */
export const useChildren = () =>
  useDashboardQuery('GetUsers', undefined, {
    refetchInterval: (children) => liveStatusInterval(macStatusesOf(children)),
  });
