import { expect } from 'vitest';
import type { Parent } from './fixtures.ts';
import type { TestServer } from './harness.ts';

// Drives the built-in billing simulator the way a parent's browser does: StripeUrl's link, the
// simulator's checkout page, its Complete / Cancel buttons, the portal's Cancel subscription.

export async function stripeUrl(server: TestServer, parent: Pick<Parent, 'token'>): Promise<URL> {
  const result = await server.call('StripeUrl', undefined, { token: parent.token });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return new URL(result.body.url);
}

/** Opens the checkout page, presses a button, and returns where the simulator sent the browser. */
export async function finishCheckout(
  server: TestServer,
  checkoutUrl: URL,
  button: 'complete' | 'cancel',
): Promise<{ location: URL; sessionId: string }> {
  const page = await server.app.inject({ method: 'GET', url: checkoutUrl.pathname });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('Basic plan');
  const pressed = await server.app.inject({
    method: 'POST',
    url: `${checkoutUrl.pathname}/${button}`,
  });
  expect(pressed.statusCode).toBe(303);
  const location = new URL(String(pressed.headers.location));
  return { location, sessionId: location.searchParams.get('session_id') ?? '' };
}

/** StripeUrl → Complete checkout → HandleCheckoutSuccess, as the dashboard does. */
export async function subscribe(server: TestServer, parent: Pick<Parent, 'token'>) {
  const { sessionId, location } = await finishCheckout(
    server,
    await stripeUrl(server, parent),
    'complete',
  );
  expect(location.pathname).toBe('/checkout-success');
  const success = await server.call(
    'HandleCheckoutSuccess',
    { stripeCheckoutSessionId: sessionId },
    { token: parent.token },
  );
  expect(success.status, JSON.stringify(success.body)).toBe(200);
  return sessionId;
}

/** StripeUrl (the portal, once subscribed) → Cancel subscription. */
export async function cancelSubscriptionInPortal(
  server: TestServer,
  parent: Pick<Parent, 'token'>,
) {
  const portal = await stripeUrl(server, parent);
  expect(portal.pathname).toMatch(/^\/billing-simulator\/portal\//);
  const cancelled = await server.app.inject({
    method: 'POST',
    url: `${portal.pathname}/cancel-subscription`,
  });
  expect(cancelled.statusCode).toBe(303);
  const page = await server.app.inject({ method: 'GET', url: portal.pathname });
  expect(page.body).toContain('canceled');
}
