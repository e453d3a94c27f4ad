import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { signInAsNewParent } from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';

/** No serious or critical axe violation on the page as it is now. */
async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${label}: ${violation.id} ${violation.nodes.map((n) => n.target).join(' ')}`,
    );
  expect.soft(serious, serious.join('\n')).toEqual([]);
}

// Plan and billing end to end, against the server's built-in billing simulator (no Stripe key):
// a trialing parent starts a subscription from Settings, completes the simulator's checkout, comes
// back to /checkout-success, sees the plan active, and opens the billing portal.

test('a trialing parent subscribes from Settings and then manages the subscription', async ({
  page,
  request,
  mailbox,
}) => {
  await signInAsNewParent(page, request, mailbox, 'billing');
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const plan = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Plan' }) });
  await expect(plan.getByText('Basic plan')).toBeVisible();
  await expect(plan.getByText('$10 per month')).toBeVisible();
  await expect(plan.getByText('trialing', { exact: true })).toBeVisible();
  await expectAccessible(page, 'settings');

  await plan.getByRole('button', { name: 'Start subscription...' }).click();
  const checkoutLink = plan.getByRole('link', { name: 'Click here!' });
  await expect(checkoutLink).toHaveAttribute('href', /\/billing-simulator\/checkout\/cs_sim_\w+$/);
  await checkoutLink.click();

  // the simulator's checkout page stands in for Stripe's
  await expect(page.getByRole('heading', { name: 'Start your subscription' })).toBeVisible();
  await expect(page.getByText('$10.00 per month')).toBeVisible();
  await expectAccessible(page, 'simulator checkout');
  await page.getByRole('button', { name: 'Complete checkout' }).click();

  await expect(page).toHaveURL(/\/checkout-success\?session_id=cs_sim_\w+$/);
  await expect(page.getByRole('heading', { name: 'Your subscription is active!' })).toBeVisible();
  await expectAccessible(page, 'checkout success');
  await page.getByRole('link', { name: 'Back to Settings' }).click();

  await expect(page).toHaveURL(/\/settings$/);
  await expect(plan.getByText('active', { exact: true })).toBeVisible();
  await plan.getByRole('button', { name: 'Manage subscription...' }).click();
  const portalLink = plan.getByRole('link', { name: 'Click here!' });
  await expect(portalLink).toHaveAttribute('href', /\/billing-simulator\/portal\/bps_sim_\w+$/);
  await portalLink.click();

  await expect(page.getByRole('heading', { name: 'Billing portal' })).toBeVisible();
  await expect(page.getByText(/Subscription: active, renews on \d{4}-\d{2}-\d{2}/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  await expectAccessible(page, 'simulator portal');
  await page.getByRole('link', { name: 'Return to the dashboard' }).click();
  await expect(page).toHaveURL(/\/settings$/);
});

test('cancelling the checkout comes back to /checkout-cancel and keeps the trial', async ({
  page,
  request,
  mailbox,
}) => {
  await signInAsNewParent(page, request, mailbox, 'billing-cancel');
  await page.goto('/settings');
  const plan = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Plan' }) });
  await plan.getByRole('button', { name: 'Start subscription...' }).click();
  await plan.getByRole('link', { name: 'Click here!' }).click();
  await page.getByRole('button', { name: 'Cancel checkout' }).click();

  await expect(page).toHaveURL(/\/checkout-cancel\?session_id=cs_sim_\w+$/);
  await expect(page.getByRole('heading', { name: 'Payment setup cancelled' })).toBeVisible();
  await expectAccessible(page, 'checkout cancel');
  await page.getByRole('link', { name: 'Back to Settings' }).click();
  await expect(plan.getByText('trialing', { exact: true })).toBeVisible();
});
