import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type LinkRequestState,
  type SubscriptionBadge,
  subscriptionBadge,
  subscriptionLinkText,
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
