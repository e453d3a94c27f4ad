import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import type { SubscriptionStatus } from '../db/schema.ts';
import { DAY } from '../db/values.ts';

export const TRIAL_DAYS = 18;
export const TRIAL_EXPIRING_SOON_DAYS = 3;

/** GetAdmin's mapping (server-behaviour §3.8); daysLeft counts to the real end of the trial. */
export function wireSubscriptionStatus(
  status: SubscriptionStatus,
  expiration: string,
  now: Date,
): AdminSubscriptionStatus {
  switch (status) {
    case 'complimentary':
      return { case: 'complimentary' };
    case 'trialing':
    case 'trialExpiringSoon': {
      const untilExpiration = Math.max(
        0,
        Math.ceil((Date.parse(expiration) - now.getTime()) / DAY),
      );
      const daysLeft =
        status === 'trialing' ? untilExpiration + TRIAL_EXPIRING_SOON_DAYS : untilExpiration;
      return { case: 'trialing', daysLeft };
    }
    case 'paid':
      return { case: 'paid' };
    case 'overdue':
      return { case: 'overdue' };
    case 'unpaid':
    case 'pendingAccountDeletion':
    // a pending account never has a session; shown as unpaid should it ever get here
    case 'pendingEmailVerification':
      return { case: 'unpaid' };
  }
}
