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

// ---------------------------------------------------------------------------
// Account lifecycle (server-behaviour §8.1). The daily subscription job asks `stepOnExpiry` what to
// do with an account whose `subscription_status_expiration` has passed; nothing happens before.

export type AccountStatus =
  | 'pendingEmailVerification'
  | 'trialing'
  | 'trialExpiringSoon'
  | 'overdue'
  | 'paid'
  | 'unpaid'
  | 'pendingAccountDeletion'
  | 'complimentary';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The status an account has under the server's billing. With billing off (BILLING=off: a family or
 * a school running its own server) nobody pays, so every verified account is complimentary: no
 * trial countdown, nothing to buy, never moved on for want of payment. The stored status is kept
 * as it is, so a server that turns billing on later resumes each account where it was.
 */
export function statusUnderBilling(status: AccountStatus, isBillingOn: boolean): AccountStatus {
  if (isBillingOn || status === 'pendingEmailVerification') return status;
  return 'complimentary';
}

/** Days in each status before the job moves the account on. */
export const LIFECYCLE_DAYS = {
  /** Unverified accounts are deleted 3 days after signup. */
  pendingEmailVerification: 3,
  /** 18 trialing + 3 expiring soon = the 21-day trial, counted from email verification. */
  trialing: 18,
  trialExpiringSoon: 3,
  trialOverdue: 7,
  paidOverdue: 14,
  unpaid: 365,
  pendingAccountDeletion: 30,
  /** Paid accounts are checked again 2 days after Stripe's period end. */
  paidGrace: 2,
  /** A completed checkout (or a paid invoice without a period) counts as paid for 33 days. */
  paidWithoutPeriod: 33,
} as const;

export const TRIAL_LENGTH_DAYS = LIFECYCLE_DAYS.trialing + LIFECYCLE_DAYS.trialExpiringSoon;

export type LifecycleEmail =
  | 'delete-email-unverified'
  | 'trial-ending-soon'
  | 'trial-ended-to-overdue'
  | 'overdue-to-unpaid'
  | 'paid-to-overdue'
  | 'unpaid-to-pending-delete';

export interface ExpiryFacts {
  now: Date;
  /** The parent has at least one connected computer user. */
  isOnboarded: boolean;
  /**
   * The end of the current period when the account's Stripe subscription is active; undefined when
   * there is none, or it is not active. Only read for overdue and paid accounts.
   */
  activeSubscriptionPeriodEnd?: Date;
}

export type LifecycleStep =
  | { kind: 'wait' }
  | { kind: 'update'; status: AccountStatus; expiration: Date; email?: LifecycleEmail }
  | { kind: 'delete'; reason: string; email?: LifecycleEmail };

const after = (now: Date, days: number) => new Date(now.getTime() + days * DAY_MS);

/** Only these statuses consult Stripe when they expire. */
export function checksStripeOnExpiry(status: AccountStatus): boolean {
  return status === 'overdue' || status === 'paid';
}

/** Paid until the period end + 2 days grace (never a moment already past: then a day from now). */
export function paidUntil(periodEnd: Date, now: Date): Date {
  const until = after(periodEnd, LIFECYCLE_DAYS.paidGrace);
  return until.getTime() > now.getTime() ? until : after(now, 1);
}

/** The §8.1 transition table: what the job does with one account at `facts.now`. */
export function stepOnExpiry(
  account: { status: AccountStatus; expiration: Date },
  facts: ExpiryFacts,
): LifecycleStep {
  const { now, isOnboarded } = facts;
  if (account.status === 'complimentary') return { kind: 'wait' };
  if (account.expiration.getTime() > now.getTime()) return { kind: 'wait' };
  const ifOnboarded = (email: LifecycleEmail) => (isOnboarded ? { email } : {});
  switch (account.status) {
    case 'pendingEmailVerification':
      return {
        kind: 'delete',
        reason: 'email unverified > 3 days',
        email: 'delete-email-unverified',
      };
    case 'trialing':
      return {
        kind: 'update',
        status: 'trialExpiringSoon',
        expiration: after(now, LIFECYCLE_DAYS.trialExpiringSoon),
        email: 'trial-ending-soon',
      };
    case 'trialExpiringSoon':
      return {
        kind: 'update',
        status: 'overdue',
        expiration: after(now, LIFECYCLE_DAYS.trialOverdue),
        ...ifOnboarded('trial-ended-to-overdue'),
      };
    case 'overdue':
      if (facts.activeSubscriptionPeriodEnd) {
        return {
          kind: 'update',
          status: 'paid',
          expiration: paidUntil(facts.activeSubscriptionPeriodEnd, now),
        };
      }
      return {
        kind: 'update',
        status: 'unpaid',
        expiration: after(now, LIFECYCLE_DAYS.unpaid),
        ...ifOnboarded('overdue-to-unpaid'),
      };
    case 'paid':
      if (facts.activeSubscriptionPeriodEnd) {
        return {
          kind: 'update',
          status: 'paid',
          expiration: paidUntil(facts.activeSubscriptionPeriodEnd, now),
        };
      }
      return {
        kind: 'update',
        status: 'overdue',
        expiration: after(now, LIFECYCLE_DAYS.paidOverdue),
        email: 'paid-to-overdue',
      };
    case 'unpaid':
      return {
        kind: 'update',
        status: 'pendingAccountDeletion',
        expiration: after(now, LIFECYCLE_DAYS.pendingAccountDeletion),
        ...ifOnboarded('unpaid-to-pending-delete'),
      };
    case 'pendingAccountDeletion':
      return { kind: 'delete', reason: 'account unpaid > 1yr' };
  }
}

/**
 * Days left in the trial as the dashboard shows them: a trialing account still has the 3
 * expiring-soon days ahead of it. Whole days, rounded up, never negative.
 */
export function trialDaysLeft(
  status: 'trialing' | 'trialExpiringSoon',
  expiration: Date,
  now: Date,
): number {
  const untilExpiration = Math.max(0, Math.ceil((expiration.getTime() - now.getTime()) / DAY_MS));
  return status === 'trialing'
    ? untilExpiration + LIFECYCLE_DAYS.trialExpiringSoon
    : untilExpiration;
}

/** The wire status (GetAdmin) of an account status. */
export function wireSubscriptionStatus(
  status: AccountStatus,
  expiration: Date,
  now: Date,
): AdminSubscriptionStatus {
  switch (status) {
    case 'complimentary':
      return { case: 'complimentary' };
    case 'trialing':
    case 'trialExpiringSoon':
      return { case: 'trialing', daysLeft: trialDaysLeft(status, expiration, now) };
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

const CHECKOUT_STATUSES: readonly AccountStatus[] = [
  'trialing',
  'trialExpiringSoon',
  'overdue',
  'unpaid',
  'pendingAccountDeletion',
];
const PORTAL_STATUSES: readonly AccountStatus[] = [
  'paid',
  'overdue',
  'unpaid',
  'pendingAccountDeletion',
];

/**
 * StripeUrl (server-behaviour §3.10): a new checkout without a subscription, the billing portal
 * with one. `isExpected` false = a combination the server logs before falling back.
 */
export function billingLink(
  status: AccountStatus,
  hasSubscription: boolean,
): { kind: 'checkout' | 'portal'; isExpected: boolean } {
  if (hasSubscription) return { kind: 'portal', isExpected: PORTAL_STATUSES.includes(status) };
  return { kind: 'checkout', isExpected: CHECKOUT_STATUSES.includes(status) };
}

/** HandleCheckoutSuccess: a completed checkout with an active subscription makes these paid. */
export function becomesPaidOnCheckout(status: AccountStatus, subscriptionStatus: string): boolean {
  return (
    subscriptionStatus === 'active' &&
    status !== 'complimentary' &&
    status !== 'pendingEmailVerification'
  );
}
