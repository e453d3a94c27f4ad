import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import { LIFECYCLE_DAYS, wireSubscriptionStatus as toWire } from '@keyward/domain/subscription';
import type { SubscriptionStatus } from '../db/schema.ts';

export const TRIAL_DAYS = LIFECYCLE_DAYS.trialing;
export const TRIAL_EXPIRING_SOON_DAYS = LIFECYCLE_DAYS.trialExpiringSoon;

/** GetAdmin's mapping (server-behaviour §3.8); daysLeft counts to the real end of the trial. */
export function wireSubscriptionStatus(
  status: SubscriptionStatus,
  expiration: string,
  now: Date,
): AdminSubscriptionStatus {
  return toWire(status, new Date(expiration), now);
}
