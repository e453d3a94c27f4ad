import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type AccountStatus,
  becomesPaidOnCheckout,
  billingLink,
  checksStripeOnExpiry,
  type ExpiryFacts,
  type LifecycleStep,
  type LinkRequestState,
  paidUntil,
  type SubscriptionBadge,
  statusUnderBilling,
  stepOnExpiry,
  subscriptionBadge,
  subscriptionLinkText,
  TRIAL_LENGTH_DAYS,
  trialDaysLeft,
  wireSubscriptionStatus,
} from '../src/subscription.ts';

describe('subscriptionBadge', () => {
  test.each<[AdminSubscriptionStatus, SubscriptionBadge]>([
    [{ case: 'complimentary' }, { label: 'complimentary', tone: 'ok' }],
    [
      { case: 'trialing', daysLeft: 18 },
      { label: 'trialing', tone: 'ok', linkText: 'Start subscription...' },
    ],
    [
      { case: 'trialing', daysLeft: 10 },
      { label: 'trialing', tone: 'ok', linkText: 'Start subscription...' },
    ],
    [
      { case: 'trialing', daysLeft: 9 },
      { label: '9 days left in trial', tone: 'warning', linkText: 'Start subscription...' },
    ],
    [
      { case: 'trialing', daysLeft: 2 },
      { label: '2 days left in trial', tone: 'warning', linkText: 'Start subscription...' },
    ],
    [
      { case: 'trialing', daysLeft: 1 },
      { label: '1 day left in trial', tone: 'warning', linkText: 'Start subscription...' },
    ],
    [
      { case: 'trialing', daysLeft: 0 },
      { label: '0 days left in trial', tone: 'warning', linkText: 'Start subscription...' },
    ],
    [{ case: 'paid' }, { label: 'active', tone: 'ok', linkText: 'Manage subscription...' }],
    [
      { case: 'overdue' },
      { label: 'past due', tone: 'warning', linkText: 'Resolve payment status...' },
    ],
    [
      { case: 'unpaid' },
      { label: 'payment required', tone: 'error', linkText: 'Resolve payment status...' },
    ],
  ])('%j → %j', (status, expected) => {
    expect(subscriptionBadge(status)).toEqual(expected);
  });
});

describe('subscriptionLinkText', () => {
  const paid = subscriptionBadge({ case: 'paid' });
  const complimentary = subscriptionBadge({ case: 'complimentary' });
  test.each<[SubscriptionBadge, LinkRequestState, string | undefined]>([
    [paid, { state: 'idle' }, 'Manage subscription...'],
    [complimentary, { state: 'idle' }, undefined],
    [paid, { state: 'ongoing' }, 'Loading link...'],
    [paid, { state: 'failed' }, 'Failed to load'],
    [paid, { state: 'succeeded', url: 'https://billing.example/portal' }, 'Click here!'],
  ])('%j while %j → %j', (badge, request, expected) => {
    expect(subscriptionLinkText(badge, request)).toBe(expected);
  });
});

const NOW = new Date('2026-03-01T06:30:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(NOW.getTime() + days * DAY);

describe('trialDaysLeft', () => {
  test.each<['trialing' | 'trialExpiringSoon', Date, number]>([
    // a trialing account still has the 3 expiring-soon days ahead of it
    ['trialing', inDays(18), 21],
    ['trialing', inDays(7), 10],
    ['trialing', inDays(6), 9],
    ['trialing', inDays(2), 5],
    ['trialing', new Date(NOW.getTime() + 1), 4],
    ['trialing', NOW, 3],
    ['trialing', inDays(-1), 3],
    ['trialExpiringSoon', inDays(3), 3],
    ['trialExpiringSoon', new Date(NOW.getTime() + DAY / 2), 1],
    ['trialExpiringSoon', NOW, 0],
    ['trialExpiringSoon', inDays(-2), 0],
  ])('%s until %s → %i', (status, expiration, expected) => {
    expect(trialDaysLeft(status, expiration, NOW)).toBe(expected);
  });

  test('the whole trial is 21 days', () => {
    expect(TRIAL_LENGTH_DAYS).toBe(21);
  });
});

describe('wireSubscriptionStatus', () => {
  test.each<[AccountStatus, Date, ReturnType<typeof wireSubscriptionStatus>]>([
    ['complimentary', inDays(-100), { case: 'complimentary' }],
    ['trialing', inDays(2), { case: 'trialing', daysLeft: 5 }],
    ['trialExpiringSoon', inDays(1), { case: 'trialing', daysLeft: 1 }],
    ['paid', inDays(30), { case: 'paid' }],
    ['overdue', inDays(3), { case: 'overdue' }],
    ['unpaid', inDays(300), { case: 'unpaid' }],
    ['pendingAccountDeletion', inDays(20), { case: 'unpaid' }],
    ['pendingEmailVerification', inDays(2), { case: 'unpaid' }],
  ])('%s → %j', (status, expiration, expected) => {
    expect(wireSubscriptionStatus(status, expiration, NOW)).toEqual(expected);
  });
});

describe('stepOnExpiry', () => {
  const onboarded: ExpiryFacts = { now: NOW, isOnboarded: true };
  const notOnboarded: ExpiryFacts = { now: NOW, isOnboarded: false };
  const stripeActive = (periodEnd: Date): ExpiryFacts => ({
    now: NOW,
    isOnboarded: true,
    activeSubscriptionPeriodEnd: periodEnd,
  });

  test.each<[string, AccountStatus, Date, ExpiryFacts, LifecycleStep]>([
    ['nothing before the expiration', 'trialing', inDays(1), onboarded, { kind: 'wait' }],
    [
      'a second early still waits',
      'paid',
      new Date(NOW.getTime() + 1000),
      onboarded,
      { kind: 'wait' },
    ],
    ['complimentary never expires', 'complimentary', inDays(-999), onboarded, { kind: 'wait' }],
    [
      'unverified for 3 days: deleted',
      'pendingEmailVerification',
      NOW,
      notOnboarded,
      { kind: 'delete', reason: 'email unverified > 3 days', email: 'delete-email-unverified' },
    ],
    [
      'trial → expiring soon for 3 days',
      'trialing',
      NOW,
      notOnboarded,
      {
        kind: 'update',
        status: 'trialExpiringSoon',
        expiration: inDays(3),
        email: 'trial-ending-soon',
      },
    ],
    [
      'trial ended → overdue for 7 days, email when onboarded',
      'trialExpiringSoon',
      inDays(-1),
      onboarded,
      { kind: 'update', status: 'overdue', expiration: inDays(7), email: 'trial-ended-to-overdue' },
    ],
    [
      'trial ended, not onboarded: no email',
      'trialExpiringSoon',
      NOW,
      notOnboarded,
      { kind: 'update', status: 'overdue', expiration: inDays(7) },
    ],
    [
      'overdue with an active subscription → paid until period end + 2 days',
      'overdue',
      NOW,
      stripeActive(inDays(20)),
      { kind: 'update', status: 'paid', expiration: inDays(22) },
    ],
    [
      'overdue without one → unpaid for 365 days',
      'overdue',
      NOW,
      onboarded,
      { kind: 'update', status: 'unpaid', expiration: inDays(365), email: 'overdue-to-unpaid' },
    ],
    [
      'overdue → unpaid, not onboarded: no email',
      'overdue',
      NOW,
      notOnboarded,
      { kind: 'update', status: 'unpaid', expiration: inDays(365) },
    ],
    [
      'paid and still active → paid for another period',
      'paid',
      NOW,
      stripeActive(inDays(30)),
      { kind: 'update', status: 'paid', expiration: inDays(32) },
    ],
    [
      'paid with a stale period end → checked again tomorrow',
      'paid',
      NOW,
      stripeActive(inDays(-5)),
      { kind: 'update', status: 'paid', expiration: inDays(1) },
    ],
    [
      'paid, subscription gone → overdue for 14 days, always emailed',
      'paid',
      NOW,
      notOnboarded,
      { kind: 'update', status: 'overdue', expiration: inDays(14), email: 'paid-to-overdue' },
    ],
    [
      'unpaid → pending deletion for 30 days',
      'unpaid',
      NOW,
      onboarded,
      {
        kind: 'update',
        status: 'pendingAccountDeletion',
        expiration: inDays(30),
        email: 'unpaid-to-pending-delete',
      },
    ],
    [
      'unpaid → pending deletion, not onboarded: no email',
      'unpaid',
      NOW,
      notOnboarded,
      { kind: 'update', status: 'pendingAccountDeletion', expiration: inDays(30) },
    ],
    [
      'pending deletion → deleted',
      'pendingAccountDeletion',
      NOW,
      onboarded,
      { kind: 'delete', reason: 'account unpaid > 1yr' },
    ],
  ])('%s', (_name, status, expiration, facts, expected) => {
    expect(stepOnExpiry({ status, expiration }, facts)).toEqual(expected);
  });

  test.each<[AccountStatus, boolean]>([
    ['overdue', true],
    ['paid', true],
    ['trialing', false],
    ['trialExpiringSoon', false],
    ['unpaid', false],
    ['pendingAccountDeletion', false],
    ['pendingEmailVerification', false],
    ['complimentary', false],
  ])('%s consults Stripe: %s', (status, expected) => {
    expect(checksStripeOnExpiry(status)).toBe(expected);
  });

  test('paidUntil keeps a future period end + 2 days', () => {
    expect(paidUntil(inDays(10), NOW)).toEqual(inDays(12));
  });
});

describe('billingLink', () => {
  test.each<[AccountStatus, boolean, ReturnType<typeof billingLink>]>([
    ['trialing', false, { kind: 'checkout', isExpected: true }],
    ['trialExpiringSoon', false, { kind: 'checkout', isExpected: true }],
    ['overdue', false, { kind: 'checkout', isExpected: true }],
    ['unpaid', false, { kind: 'checkout', isExpected: true }],
    ['pendingAccountDeletion', false, { kind: 'checkout', isExpected: true }],
    ['paid', false, { kind: 'checkout', isExpected: false }],
    ['complimentary', false, { kind: 'checkout', isExpected: false }],
    ['paid', true, { kind: 'portal', isExpected: true }],
    ['overdue', true, { kind: 'portal', isExpected: true }],
    ['unpaid', true, { kind: 'portal', isExpected: true }],
    ['pendingAccountDeletion', true, { kind: 'portal', isExpected: true }],
    ['trialing', true, { kind: 'portal', isExpected: false }],
  ])('%s, subscription %s → %j', (status, hasSubscription, expected) => {
    expect(billingLink(status, hasSubscription)).toEqual(expected);
  });
});

describe('statusUnderBilling', () => {
  test.each<[AccountStatus, boolean, AccountStatus]>([
    ['trialing', true, 'trialing'],
    ['unpaid', true, 'unpaid'],
    ['complimentary', true, 'complimentary'],
    ['pendingEmailVerification', true, 'pendingEmailVerification'],
    // billing off: every verified account is complimentary, whatever it was
    ['trialing', false, 'complimentary'],
    ['trialExpiringSoon', false, 'complimentary'],
    ['overdue', false, 'complimentary'],
    ['paid', false, 'complimentary'],
    ['unpaid', false, 'complimentary'],
    ['pendingAccountDeletion', false, 'complimentary'],
    ['complimentary', false, 'complimentary'],
    // an unverified signup is still only a signup
    ['pendingEmailVerification', false, 'pendingEmailVerification'],
  ])('%s, billing on %s → %s', (status, isBillingOn, expected) => {
    expect(statusUnderBilling(status, isBillingOn)).toBe(expected);
  });
});

describe('becomesPaidOnCheckout', () => {
  test.each<[AccountStatus, string, boolean]>([
    ['trialing', 'active', true],
    ['trialExpiringSoon', 'active', true],
    ['overdue', 'active', true],
    ['paid', 'active', true],
    ['unpaid', 'active', true],
    ['pendingAccountDeletion', 'active', true],
    ['complimentary', 'active', false],
    ['pendingEmailVerification', 'active', false],
    ['trialing', 'incomplete', false],
    ['overdue', 'canceled', false],
  ])('%s with a %s subscription → %s', (status, subscriptionStatus, expected) => {
    expect(becomesPaidOnCheckout(status, subscriptionStatus)).toBe(expected);
  });
});
