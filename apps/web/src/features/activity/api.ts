import type { DashboardOperation } from '@keyward/contract/dashboard';
import type { ActivityRange } from '@keyward/contract/shared';
import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

/** The reads whose counts change when items are reviewed or flagged. */
const ACTIVITY_COUNTS: DashboardOperation[] = [
  'ChildActivityInsights',
  'ChildActivitySummaries',
  'FamilyActivitySummaries',
  'DashboardWidgets',
];

/** getTimezoneOffset() of today: minutes behind UTC (wire-contract §3.4). */
export const timezoneOffsetMinutes = () => new Date().getTimezoneOffset();

export const useChildActivitySummaries = (childId: string) =>
  useDashboardQuery('ChildActivitySummaries', {
    childId,
    jsTimezoneOffsetMinutes: timezoneOffsetMinutes(),
  });

export const useFamilyActivitySummaries = () =>
  useDashboardQuery('FamilyActivitySummaries', {
    jsTimezoneOffsetMinutes: timezoneOffsetMinutes(),
  });

// The feed pages wait for a fetch made after they mounted (isFetchedAfterMount): a cached feed
// from an earlier visit would show items already reviewed since.
export const useChildActivityFeed = (userId: string, range: ActivityRange) =>
  useDashboardQuery('UserActivityFeed', { userId, range }, { staleTime: 0 });

export const useFamilyActivityFeed = (range: ActivityRange) =>
  useDashboardQuery('CombinedUsersActivityFeed', { range }, { staleTime: 0 });

// No toasts: the feed updates at once and shows a failure itself.
export const useDeleteActivityItems = () =>
  useDashboardMutation('DeleteActivityItems_v2', { invalidates: ACTIVITY_COUNTS });

export const useFlagActivityItems = () =>
  useDashboardMutation('FlagActivityItems', { invalidates: ACTIVITY_COUNTS });

/** Issue 24: the child's last 7 days at a glance. */
export const useChildActivityInsights = (childId: string) =>
  useDashboardQuery('ChildActivityInsights', {
    childId,
    jsTimezoneOffsetMinutes: timezoneOffsetMinutes(),
  });
