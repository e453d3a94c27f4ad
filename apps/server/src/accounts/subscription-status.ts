import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import {
  LIFECYCLE_DAYS,
  statusUnderBilling,
  wireSubscriptionStatus as toWire,
} from '@keyward/domain/subscription';
import type { BillingMode } from '../config.ts';
import type { SubscriptionStatus } from '../db/schema.ts';

export const TRIAL_DAYS = LIFECYCLE_DAYS.trialing;
export const TRIAL_EXPIRING_SOON_DAYS = LIFECYCLE_DAYS.trialExpiringSoon;

/** The account's status as this server bills it: with BILLING=off every account is complimentary. */
export function billedStatus(status: SubscriptionStatus, billing: BillingMode): SubscriptionStatus {
  return statusUnderBilling(status, billing !== 'off');
}

/** GetAdmin's mapping (server-behaviour §3.8); daysLeft counts to the real end of the trial. */
export function wireSubscriptionStatus(
  status: SubscriptionStatus,
  expiration: string,
  now: Date,
  billing: BillingMode,
): AdminSubscriptionStatus {
  return toWire(billedStatus(status, billing), new Date(expiration), now);
}
