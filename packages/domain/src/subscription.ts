import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import { pluralise } from './wording.ts';

export const TRIAL_WARNING_DAYS = 10;

export type BadgeTone = 'ok' | 'warning' | 'error';

export interface SubscriptionBadge {
  label: string;
  tone: BadgeTone;
  /** Text of the subscription link while idle; absent = no link. */
  linkText?: string;
}

/** Spec §4 "Subscription badge and link". */
export function subscriptionBadge(status: AdminSubscriptionStatus): SubscriptionBadge {
  switch (status.case) {
    case 'complimentary':
      return { label: 'complimentary', tone: 'ok' };
    case 'trialing':
      if (status.daysLeft < TRIAL_WARNING_DAYS) {
        return {
          label: `${pluralise(status.daysLeft, 'day')} left in trial`,
          tone: 'warning',
          linkText: 'Start subscription...',
        };
      }
      return { label: 'trialing', tone: 'ok', linkText: 'Start subscription...' };
    case 'paid':
      return { label: 'active', tone: 'ok', linkText: 'Manage subscription...' };
    case 'overdue':
      return { label: 'past due', tone: 'warning', linkText: 'Resolve payment status...' };
    case 'unpaid':
      return { label: 'payment required', tone: 'error', linkText: 'Resolve payment status...' };
  }
}

export type LinkRequestState =
  | { state: 'idle' }
  | { state: 'ongoing' }
  | { state: 'failed' }
  | { state: 'succeeded'; url: string };

/** The link's text once the billing-portal link was requested (idle: the badge's linkText). */
export function subscriptionLinkText(
  badge: SubscriptionBadge,
  request: LinkRequestState,
): string | undefined {
  switch (request.state) {
    case 'idle':
      return badge.linkText;
    case 'ongoing':
      return 'Loading link...';
    case 'failed':
      return 'Failed to load';
    case 'succeeded':
      return 'Click here!';
  }
}
