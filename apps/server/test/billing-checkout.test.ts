import { afterAll, describe, expect, test } from 'vitest';
import { toDbTime } from '../src/db/values.ts';
import {
  cancelSubscriptionInPortal,
  finishCheckout,
  stripeUrl,
  subscribe,
} from './billing-helpers.ts';
import { createTestServer } from './harness.ts';

const OPERATOR = 'operator@example.com';
const server = await createTestServer({ env: { OPERATOR_EMAIL: OPERATOR } });
afterAll(() => server.close());
const alice = await server.signUpVerifiedParent();
const bob = await server.signUpVerifiedParent();

async function parentRow(id: string) {
  return server.db.selectFrom('parents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function setStatus(
  id: string,
  status:
    | 'trialing'
    | 'trialExpiringSoon'
    | 'overdue'
    | 'paid'
    | 'unpaid'
    | 'pendingAccountDeletion'
    | 'complimentary',
  subscriptionId: string | null,
) {
  await server.db
    .updateTable('parents')
    .set({
      subscription_status: status,
      subscription_id: subscriptionId,
      subscription_status_expiration: toDbTime(new Date(server.clock.now().getTime() + 86_400_000)),
    })
    .where('id', '=', id)
    .execute();
}

async function adminStatus(token: string) {
  const admin = await server.call('GetAdmin', undefined, { token });
  expect(admin.status).toBe(200);
  return admin.body.subscriptionStatus;
}

describe('StripeUrl', () => {
  test('a trialing parent gets a checkout for their own account and price', async () => {
    const url = await stripeUrl(server, alice);
    expect(url.origin).toBe(server.config.dashboardUrls[0]);
    expect(url.pathname).toMatch(/^\/billing-simulator\/checkout\/cs_sim_\w+$/);
    const page = await server.app.inject({ method: 'GET', url: url.pathname });
    expect(page.body).toContain('$10.00 per month');
    expect(page.body).toContain(alice.email);
  });

  test.each(['trialExpiringSoon', 'overdue', 'unpaid', 'pendingAccountDeletion'] as const)(
    '%s without a subscription → checkout',
    async (status) => {
      await setStatus(bob.adminId, status, null);
      expect((await stripeUrl(server, bob)).pathname).toMatch(/^\/billing-simulator\/checkout\//);
    },
  );

  test('complimentary (unexpected) falls back to a checkout', async () => {
    await setStatus(bob.adminId, 'complimentary', null);
    expect((await stripeUrl(server, bob)).pathname).toMatch(/^\/billing-simulator\/checkout\//);
  });

  test.each(['paid', 'overdue', 'unpaid', 'pendingAccountDeletion'] as const)(
    '%s with a subscription → the billing portal of its customer',
    async (status) => {
      await setStatus(bob.adminId, 'trialing', null);
      await subscribe(server, bob);
      const { subscription_id } = await parentRow(bob.adminId);
      await setStatus(bob.adminId, status, subscription_id);
      const portal = await stripeUrl(server, bob);
      expect(portal.pathname).toMatch(/^\/billing-simulator\/portal\/bps_sim_\w+$/);
      const page = await server.app.inject({ method: 'GET', url: portal.pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('active');
      expect(page.body).toContain(`${server.config.dashboardUrls[0]}/settings`);
    },
  );

  test('needs a session', async () => {
    const result = await server.call('StripeUrl');
    expect(result.status).toBe(401);
    expect(result.body.type).toBe('loggedOut');
  });
});

describe('checkout in the simulator', () => {
  test('completing it signs a webhook that makes the account paid, then HandleCheckoutSuccess confirms', async () => {
    const parent = await server.signUpVerifiedParent();
    expect(await adminStatus(parent.token)).toEqual({ case: 'trialing', daysLeft: 21 });
    const { location, sessionId } = await finishCheckout(
      server,
      await stripeUrl(server, parent),
      'complete',
    );
    expect(location.pathname).toBe('/checkout-success');
    expect(sessionId).toMatch(/^cs_sim_/);
    // the simulator's invoice.paid event arrived through /stripe-events
    const events = await server.db.selectFrom('stripe_events').selectAll().execute();
    expect(events.map((e) => e.type)).toContain('invoice.paid');
    expect(await adminStatus(parent.token)).toEqual({ case: 'paid' });

    const success = await server.call(
      'HandleCheckoutSuccess',
      { stripeCheckoutSessionId: sessionId },
      { token: parent.token },
    );
    expect(success.body).toEqual({ success: true });
    const row = await parentRow(parent.adminId);
    expect(row.subscription_status).toBe('paid');
    expect(row.subscription_id).toMatch(/^sub_sim_/);
    // paid for 33 days from now
    expect(Date.parse(row.subscription_status_expiration)).toBe(
      server.clock.now().getTime() + 33 * 86_400_000,
    );
    // now the link manages the subscription
    expect((await stripeUrl(server, parent)).pathname).toMatch(/^\/billing-simulator\/portal\//);
  });

  test('cancelling it changes nothing and HandleCheckoutCancel answers success', async () => {
    const parent = await server.signUpVerifiedParent();
    const { location, sessionId } = await finishCheckout(
      server,
      await stripeUrl(server, parent),
      'cancel',
    );
    expect(location.pathname).toBe('/checkout-cancel');
    const cancel = await server.call(
      'HandleCheckoutCancel',
      { stripeCheckoutSessionId: sessionId },
      { token: parent.token },
    );
    expect(cancel.body).toEqual({ success: true });
    expect((await parentRow(parent.adminId)).subscription_status).toBe('trialing');
    const alert = server.lastEmailTo(OPERATOR, 'billing-alert');
    expect(alert.text).toContain(parent.email);
    expect(alert.text).toContain(`Checkout ${sessionId} was cancelled.`);
  });

  test('cancelling in the portal leaves the account paid until the job looks again', async () => {
    const parent = await server.signUpVerifiedParent();
    await subscribe(server, parent);
    await cancelSubscriptionInPortal(server, parent);
    expect(await adminStatus(parent.token)).toEqual({ case: 'paid' });
  });
});

describe('unexpected states', () => {
  test('a Stripe failure is the billing error with a friendly message, never a crash', async () => {
    const parent = await server.signUpVerifiedParent();
    await setStatus(parent.adminId, 'paid', 'sub_sim_vanished');
    const result = await server.call('StripeUrl', undefined, { token: parent.token });
    expect(result.status).toBe(500);
    expect(result.body).toMatchObject({
      id: '7d3e91b4',
      type: 'serverError',
      showContactSupport: true,
    });
    expect(result.body.debugMessage).toContain('resource_missing');
    expect(result.body.userMessage).toMatch(/payment provider/);
  });

  test('a complimentary account completing a checkout stays complimentary; the operator hears of it', async () => {
    const parent = await server.signUpVerifiedParent();
    const { sessionId } = await finishCheckout(server, await stripeUrl(server, parent), 'complete');
    await setStatus(parent.adminId, 'complimentary', null);
    const success = await server.call(
      'HandleCheckoutSuccess',
      { stripeCheckoutSessionId: sessionId },
      { token: parent.token },
    );
    expect(success.body).toEqual({ success: true });
    expect((await parentRow(parent.adminId)).subscription_status).toBe('complimentary');
    const alert = server.lastEmailTo(OPERATOR, 'billing-alert');
    expect(alert.text).toContain(parent.email);
    expect(alert.text).toContain('complimentary');
  });
});

describe('another parent is refused', () => {
  test('HandleCheckoutSuccess with a foreign session is notFound and changes nothing', async () => {
    const owner = await server.signUpVerifiedParent();
    const intruder = await server.signUpVerifiedParent();
    const { sessionId } = await finishCheckout(server, await stripeUrl(server, owner), 'complete');
    // the owner's webhook already made the owner paid; reset to see that nothing else moves
    await setStatus(owner.adminId, 'trialing', null);

    const result = await server.call(
      'HandleCheckoutSuccess',
      { stripeCheckoutSessionId: sessionId },
      { token: intruder.token },
    );
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({
      id: '6ac1205a',
      type: 'notFound',
      entityName: 'Checkout session',
    });
    expect((await parentRow(intruder.adminId)).subscription_status).toBe('trialing');
    expect((await parentRow(intruder.adminId)).subscription_id).toBeNull();
    expect((await parentRow(owner.adminId)).subscription_id).toBeNull();
  });

  test('HandleCheckoutCancel with a foreign session is notFound', async () => {
    const owner = await server.signUpVerifiedParent();
    const { sessionId } = await finishCheckout(server, await stripeUrl(server, owner), 'cancel');
    const result = await server.call(
      'HandleCheckoutCancel',
      { stripeCheckoutSessionId: sessionId },
      { token: alice.token },
    );
    expect(result.status).toBe(404);
    expect(result.body.entityName).toBe('Checkout session');
  });

  test.each(['', 'cs_sim_doesnotexist', '../../secrets', 'x'.repeat(300)])(
    'an unknown or malformed session id %j is notFound, never a 500',
    async (id) => {
      for (const op of ['HandleCheckoutSuccess', 'HandleCheckoutCancel']) {
        const result = await server.call(
          op,
          { stripeCheckoutSessionId: id },
          { token: alice.token },
        );
        expect(result.status).toBe(404);
        expect(result.body.type).toBe('notFound');
      }
    },
  );

  test('a missing session id is a badRequest', async () => {
    const result = await server.call('HandleCheckoutSuccess', {}, { token: alice.token });
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
  });
});

describe('the simulator API', () => {
  test('refuses calls without its key', async () => {
    const result = await server.app.inject({
      method: 'GET',
      url: '/billing-simulator/v1/subscriptions/sub_sim_x',
    });
    expect(result.statusCode).toBe(401);
  });

  test('an unknown checkout page is a 404 page', async () => {
    const result = await server.app.inject({
      method: 'GET',
      url: '/billing-simulator/checkout/cs_sim_nope',
    });
    expect(result.statusCode).toBe(404);
    expect(result.body).toContain('not found');
  });
});
