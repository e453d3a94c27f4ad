import type { AdminSubscriptionStatus, GetAdminOutput } from '@keyward/contract/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

vi.mock('sonner', () => ({
  toast: { loading: vi.fn(), success: vi.fn(), error: vi.fn() },
  Toaster: () => null,
}));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function adminWith(subscriptionStatus: AdminSubscriptionStatus): GetAdminOutput {
  return {
    id: ADMIN_ID,
    email: 'parent@example.com',
    subscriptionStatus,
    notifications: [],
    verifiedNotificationMethods: [],
    hasAdminChild: false,
    monthlyPriceInDollars: 10,
  };
}

async function planCard() {
  const heading = await screen.findByRole('heading', { name: 'Plan' });
  return within(heading.closest('section') as HTMLElement);
}

describe('the plan card', () => {
  test.each<[AdminSubscriptionStatus, string, string | null]>([
    [{ case: 'complimentary' }, 'complimentary', null],
    [{ case: 'trialing', daysLeft: 15 }, 'trialing', 'Start subscription...'],
    [{ case: 'trialing', daysLeft: 5 }, '5 days left in trial', 'Start subscription...'],
    [{ case: 'trialing', daysLeft: 1 }, '1 day left in trial', 'Start subscription...'],
    [{ case: 'paid' }, 'active', 'Manage subscription...'],
    [{ case: 'overdue' }, 'past due', 'Resolve payment status...'],
    [{ case: 'unpaid' }, 'payment required', 'Resolve payment status...'],
  ])('%j shows %s and %s', async (status, badge, link) => {
    fakeServer(() => ({ body: adminWith(status) }));
    renderApp('/settings');
    const card = await planCard();
    expect(card.getByText('Basic plan')).toBeInTheDocument();
    if (status.case === 'complimentary') {
      expect(card.getByText('Nothing to pay')).toBeInTheDocument();
      expect(card.queryByText(/per month/)).toBeNull();
    } else {
      expect(card.getByText('$10 per month')).toBeInTheDocument();
    }
    expect(card.getByText(badge)).toBeInTheDocument();
    if (link === null) expect(card.queryByRole('button')).toBeNull();
    else expect(card.getByRole('button', { name: link })).toBeInTheDocument();
  });

  test("requesting the link: 'Loading link...', then 'Click here!' to the returned url", async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    const calls = fakeServer((op) => {
      if (op === 'GetParents') return { body: [] }; // Settings → Parents (issue 12)
      if (op !== 'StripeUrl') return { body: adminWith({ case: 'trialing', daysLeft: 5 }) };
      return new Promise((resolve) => {
        answer = resolve;
      });
    });
    renderApp('/settings');
    const card = await planCard();
    await userEvent.click(card.getByRole('button', { name: 'Start subscription...' }));
    expect(await card.findByRole('button', { name: 'Loading link...' })).toBeDisabled();
    answer({ body: { url: 'https://billing.example/checkout/cs_1' } });
    const link = await card.findByRole('link', { name: 'Click here!' });
    expect(link).toHaveAttribute('href', 'https://billing.example/checkout/cs_1');
    expect(calls.filter((call) => call.op === 'StripeUrl')).toHaveLength(1);
  });

  test("a failed request shows 'Failed to load', and clicking it tries again", async () => {
    let failures = 1;
    fakeServer((op) => {
      if (op === 'GetParents') return { body: [] }; // Settings → Parents (issue 12)
      if (op !== 'StripeUrl') return { body: adminWith({ case: 'paid' }) };
      if (failures-- > 0) return serverError('serverError', {}, 500);
      return { body: { url: 'https://billing.example/portal/bps_1' } };
    });
    renderApp('/settings');
    const card = await planCard();
    await userEvent.click(card.getByRole('button', { name: 'Manage subscription...' }));
    await userEvent.click(await card.findByRole('button', { name: 'Failed to load' }));
    expect(await card.findByRole('link', { name: 'Click here!' })).toHaveAttribute(
      'href',
      'https://billing.example/portal/bps_1',
    );
  });
});

describe('the checkout result pages', () => {
  test('/checkout-success sends the session id once (StrictMode) and shows success', async () => {
    const calls = fakeServer((op) =>
      op === 'HandleCheckoutSuccess'
        ? { body: { success: true } }
        : { body: adminWith({ case: 'paid' }) },
    );
    renderApp('/checkout-success?session_id=cs_test_1', { isStrict: true });
    expect(await screen.findByText('Your subscription is active!')).toBeInTheDocument();
    const sent = calls.filter((call) => call.op === 'HandleCheckoutSuccess');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ stripeCheckoutSessionId: 'cs_test_1' });
    expect(screen.getByRole('link', { name: 'Back to Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  test("/checkout-cancel reads 'Payment setup cancelled'", async () => {
    const calls = fakeServer((op) =>
      op === 'HandleCheckoutCancel'
        ? { body: { success: true } }
        : { body: adminWith({ case: 'trialing', daysLeft: 20 }) },
    );
    renderApp('/checkout-cancel?session_id=cs_test_2');
    expect(await screen.findByText('Payment setup cancelled')).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'HandleCheckoutCancel')?.body).toEqual({
      stripeCheckoutSessionId: 'cs_test_2',
    });
  });

  test('a refused session shows the error', async () => {
    fakeServer((op) =>
      op === 'HandleCheckoutSuccess'
        ? serverError('notFound', { entityName: 'Checkout session' }, 404)
        : { body: adminWith({ case: 'trialing', daysLeft: 20 }) },
    );
    renderApp('/checkout-success?session_id=cs_other');
    expect(await screen.findByRole('alert')).toHaveTextContent('Checkout session not found.');
  });

  test('without a session id nothing is sent', async () => {
    const calls = fakeServer(() => ({ body: adminWith({ case: 'trialing', daysLeft: 20 }) }));
    renderApp('/checkout-success');
    expect(await screen.findByRole('alert')).toHaveTextContent('start again from Settings');
    expect(calls.filter((call) => call.op.startsWith('HandleCheckout'))).toHaveLength(0);
  });
});
