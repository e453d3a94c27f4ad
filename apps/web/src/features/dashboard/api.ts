import type { DashboardWidgetsOutput } from '@keyward/contract/shared';
import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';
import { liveStatusInterval } from '../../lib/live-status';

/** The home page's data; statuses stay live (every 5 s while a Mac of the family is online). */
export const useDashboardWidgets = () =>
  useDashboardQuery('DashboardWidgets', undefined, {
    refetchInterval: (widgets?: DashboardWidgetsOutput) =>
      liveStatusInterval(widgets?.children.map((child) => child.status)),
  });

/** Dismisses the announcement for this parent (DeleteEntity_v2 type 'announcement'). */
export const useDismissAnnouncement = () =>
  useDashboardMutation('DeleteEntity_v2', { invalidates: ['DashboardWidgets'] });
