import { afterAll, describe, expect, test } from 'vitest';
import { createBillingService } from '../src/billing/stripe-service.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { runSubscriptions, type SubscriptionJobDeps } from '../src/jobs/subscriptions.ts';
import { connectedMac, deviceCall } from './fixtures.ts';
import { createTestServer, uniqueEmail } from './harness.ts';

// Issue 19, finding 4: billing is a setting. BILLING=off (the default in production without a
// Stripe key): nothing to pay, no trial, no expiry; BILLING=stripe; BILLING=simulator (development
// and tests only: it makes any account paid without payment). Runs on SQLite and PostgreSQL.

const DAY = 86_400_000;
const base = {
  HMAC_KEY: 'a'.repeat(64),
  ENCRYPTION_KEY: 'b'.repeat(64),
  DATA_DIR: '/tmp/keyward-billing-modes-config',
};
const stripeKeys = {
  STRIPE_SECRET_KEY: 'sk_test_keyward_tests',
  STRIPE_WEBHOOK_SECRET: 'whsec_test_0123456789abcdef',
  STRIPE_PRICE_IDS: '1000=price_basic',
};

describe('the BILLING setting', () => {
  test.each<[string, string, Record<string, string>]>([
    ['production without a Stripe key', 'off', { NODE_ENV: 'production' }],
    ['production with a Stripe key', 'stripe', { NODE_ENV: 'production', ...stripeKeys }],
    ['development without a key', 'simulator', { NODE_ENV: 'development' }],
    ['tests without a key (the e2e server)', 'simulator', { NODE_ENV: 'test' }],
    ['development with a key', 'stripe', { NODE_ENV: 'development', ...stripeKeys }],
    ['BILLING=off in development', 'off', { NODE_ENV: 'development', BILLING: 'off' }],
    [
      'BILLING=off beside a Stripe key',
      'off',
      { NODE_ENV: 'production', BILLING: 'OFF', ...stripeKeys },
    ],
    [
      'BILLING=stripe with its keys',
      'stripe',
      { NODE_ENV: 'production', BILLING: 'stripe', ...stripeKeys },
    ],
  ])('%s → BILLING=%s', (_what, billing, env) => {
    const config = loadConfig({ ...base, ...env });
    expect(config.billing).toBe(billing);
    expect(config.stripe === undefined).toBe(billing !== 'stripe');
  });

  test.each<[string, string, Record<string, string>]>([
    ['the simulator in production', 'BILLING', { NODE_ENV: 'production', BILLING: 'simulator' }],
    ['stripe without its key', 'STRIPE_SECRET_KEY', { NODE_ENV: 'production', BILLING: 'stripe' }],
    ['an unknown value', 'BILLING', { NODE_ENV: 'development', BILLING: 'free' }],
  ])('%s stops start-up naming %s', (_what, variable, env) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(
      new RegExp(`^Invalid configuration: ${variable} `),
    );
  });
});

describe('a production server without Stripe (BILLING=off by default)', async () => {
  const server = await createTestServer({ env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' } });
  afterAll(() => server.close());
  const jobDeps: SubscriptionJobDeps = {
    db: server.db,
    billing: createBillingService({
      config: server.config,
      clock: server.clock,
      log: server.app.log,
      inject: (request) => server.app.inject(request),
    }),
    email: { send: async () => {} } as unknown as SubscriptionJobDeps['email'],
    log: server.app.log,
    dashboardUrl: server.config.dashboardUrls[0]!,
  };

  test('serves no billing simulator and no Stripe webhook', async () => {
    expect(server.config.billing).toBe('off');
    const checkoutApi = await server.app.inject({
      method: 'POST',
      url: '/billing-simulator/v1/checkout/sessions',
      payload: 'mode=subscription',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(checkoutApi.statusCode).toBe(404);
    const complete = await server.app.inject({
      method: 'POST',
      url: '/billing-simulator/checkout/cs_sim_0123/complete',
    });
    expect(complete.statusCode).toBe(404);
    const page = await server.app.inject({ method: 'GET', url: '/billing-simulator/checkout/x' });
    expect(page.body).not.toContain('Billing simulator');
    const webhook = await server.app.inject({
      method: 'POST',
      url: '/stripe-events',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(webhook.statusCode).toBe(404);
  });

  test('a new family is complimentary: no trial countdown, nothing to buy', async () => {
    const parent = await server.signUpVerifiedParent();
    const admin = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(admin.body.subscriptionStatus).toEqual({ case: 'complimentary' });
    for (const op of ['StripeUrl', 'HandleCheckoutSuccess', 'HandleCheckoutCancel']) {
      const input = op === 'StripeUrl' ? undefined : { stripeCheckoutSessionId: 'cs_sim_0123' };
      const refused = await server.call(op, input, { token: parent.token });
      expect(refused.status, op).toBe(400);
      expect(refused.body.userMessage).toBe(
        'There is nothing to pay on this server: your account is free of charge.',
      );
    }
  });

  test('the daily job never expires a family; an unverified signup still goes after 3 days', async () => {
    const parent = await server.signUpVerifiedParent();
    const mac = await connectedMac(server, parent.adminId);
    // whatever the stored status says (a server that billed before, say), nothing moves
    const lapsed = await server.signUpVerifiedParent();
    await server.db
      .updateTable('parents')
      .set({ subscription_status: 'unpaid', subscription_id: 'sub_gone' })
      .where('id', '=', lapsed.adminId)
      .execute();
    const unverified = uniqueEmail('unverified');
    expect(
      (await server.call('Signup', { email: unverified, password: 'secret-1234' })).status,
    ).toBe(200);

    const moved: Record<string, number> = {};
    for (let day = 1; day <= 800; day += 1) {
      server.clock.advance(DAY);
      const report = await runSubscriptions(jobDeps, server.clock.now());
      for (const [transition, count] of Object.entries(report.transitions)) {
        moved[transition] = (moved[transition] ?? 0) + count;
      }
      expect(report.skipped).toBe(0);
    }
    expect(moved).toEqual({ 'pendingEmailVerification→deleted': 1 });
    const statuses = await server.db
      .selectFrom('parents')
      .select(['id', 'subscription_status'])
      .where('id', 'in', [parent.adminId, lapsed.adminId])
      .execute();
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.subscription_status]))).toEqual({
      [parent.adminId]: 'trialing',
      [lapsed.adminId]: 'unpaid',
    });
    // the family's Mac keeps filtering, and the dashboard shows no trial or payment state
    const checkIn = await deviceCall(server, 'CheckIn_v2', mac.token, { appVersion: '2.4.0' });
    expect(checkIn.body.adminAccountStatus).toBe('active');
    const login = await server.call('Login', { email: lapsed.email, password: lapsed.password });
    const admin = await server.call('GetAdmin', undefined, { token: login.body.token });
    expect(admin.body.subscriptionStatus).toEqual({ case: 'complimentary' });
  });
});
