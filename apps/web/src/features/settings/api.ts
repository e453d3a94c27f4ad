import type { DashboardOperation } from '@keyward/contract/dashboard';
import { useDashboardMutation, useDashboardQuery } from '../../lib/api/hooks';

const NOTIFICATION_READS: DashboardOperation[] = ['GetAdmin', 'DashboardWidgets'];

export const useAdmin = () => useDashboardQuery('GetAdmin', undefined);

// The slide-in shows its own progress and errors ('Sending...', 'Verifying...').
export const useCreatePendingNotificationMethod = () =>
  useDashboardMutation('CreatePendingNotificationMethod');

export const useConfirmPendingNotificationMethod = () =>
  useDashboardMutation('ConfirmPendingNotificationMethod', { invalidates: NOTIFICATION_READS });

export const useDeleteNotificationMethod = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'notification method' },
    invalidates: NOTIFICATION_READS,
  });

export const useSaveNotification = () =>
  useDashboardMutation('SaveNotification', {
    toast: { verb: 'save', entity: 'notification' },
    invalidates: NOTIFICATION_READS,
  });

export const useDeleteNotification = () =>
  useDashboardMutation('DeleteEntity_v2', {
    toast: { verb: 'delete', entity: 'notification' },
    invalidates: NOTIFICATION_READS,
  });

// Checkout (start a subscription) or billing portal (manage it): a fresh link per click.
export const useStripeUrl = () => useDashboardMutation('StripeUrl');

// Parents (issue 12): the owner invites, resends, revokes and removes.
export const useParents = () => useDashboardQuery('GetParents', undefined);

export const useInviteParent = () =>
  useDashboardMutation('InviteParent', { invalidates: ['GetParents'] });

export const useRemoveParent = () =>
  useDashboardMutation('RemoveParent', { invalidates: ['GetParents'] });

// Issue 23: "This device", push notifications in this browser.
export const usePushSubscriptions = () => useDashboardQuery('GetPushSubscriptions', undefined);

export const useSavePushSubscription = () =>
  useDashboardMutation('SavePushSubscription', {
    invalidates: ['GetPushSubscriptions', 'DashboardWidgets'],
  });

export const useDeletePushSubscription = () =>
  useDashboardMutation('DeletePushSubscription', {
    toast: { verb: 'delete', entity: 'notification method' },
    invalidates: ['GetPushSubscriptions', 'DashboardWidgets'],
  });

// Issue 23: the weekly report email (the owner's switch).
export const useWeeklyReport = () => useDashboardQuery('GetWeeklyReport', undefined);

export const useSaveWeeklyReport = () =>
  useDashboardMutation('SaveWeeklyReport', {
    toast: { verb: 'save', entity: 'weekly report' },
    invalidates: ['GetWeeklyReport'],
  });
