import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger, InjectOptions, LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';
import type { Config } from '../config.ts';
import { badRequest, notFound, PqlFailure } from '../pairql/errors.ts';
import type { BillingService } from '../services/billing.ts';
import type { Clock } from '../services/clock.ts';

// The server's only door to Stripe (server-behaviour §8.2). With BILLING=stripe the official
// library talks to api.stripe.com; with the simulator the same library calls go to the built-in
// billing simulator (billing/simulator.ts), handed to the server's own routes in-process, so every
// rule runs unchanged in both modes. With BILLING=off there is nothing to pay: every call that
// would open a payment page is refused with a message saying so.

export const SIMULATOR_PREFIX = '/billing-simulator';
/** The subscription metadata key holding the family's id; Stripe copies it onto each invoice. */
export const PARENT_ID_METADATA = 'keyward_parent_id';

export interface BillingDeps {
  config: Pick<Config, 'billing' | 'stripe' | 'hmacKey'>;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The server's own app.inject (the simulator mode only). */
  inject: (options: InjectOptions) => Promise<LightMyRequestResponse>;
}

const derive = (key: Buffer, purpose: string) =>
  createHmac('sha256', key).update(purpose).digest('hex').slice(0, 40);

/** BILLING=off: a payment page was asked for where nobody pays. */
export function billingIsOff(): PqlFailure {
  return badRequest(
    '3c9e5a08',
    'Billing is off on this server (BILLING=off)',
    'There is nothing to pay on this server: your account is free of charge.',
  );
}

/** Stripe API failures become the stable billing error (§0.2 `7d3e91b4`). */
export function stripeFailure(error: unknown): PqlFailure {
  const e = error as { type?: string; code?: string; message?: string };
  return new PqlFailure({
    id: '7d3e91b4',
    type: 'serverError',
    debugMessage:
      `Stripe error: type=${e.type ?? 'unknown'} code=${e.code ?? 'none'} ${e.message ?? ''}`.trim(),
    userMessage:
      "We couldn't reach our payment provider just now. Please try again in a few minutes.",
    showContactSupport: true,
  });
}

const isMissing = (error: unknown) =>
  (error as { statusCode?: number; code?: string }).statusCode === 404 ||
  (error as { code?: string }).code === 'resource_missing';

/** Hands the library's requests to the simulator's routes, in-process. */
function simulatorHttpClient(inject: BillingDeps['inject']) {
  class InjectResponse extends Stripe.HttpClientResponse {
    constructor(private readonly response: LightMyRequestResponse) {
      super(response.statusCode, response.headers as Record<string, string>);
    }
    override getRawResponse() {
      return this.response;
    }
    override toStream(done: () => void) {
      done();
      return this.response.body;
    }
    override toJSON() {
      return Promise.resolve(this._parseResponseBody(this.response.body));
    }
  }
  class InjectHttpClient extends Stripe.HttpClient {
    override getClientName() {
      return 'billing-simulator';
    }
    override async makeRequest(
      _host: string,
      _port: string,
      path: string,
      method: string,
      headers: Record<string, string | number | string[]>,
      requestData: string,
    ) {
      const response = await inject({
        method: method as InjectOptions['method'],
        url: `${SIMULATOR_PREFIX}${path}`,
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [name, String(value)]),
        ),
        ...(requestData ? { payload: requestData } : {}),
      });
      return new InjectResponse(response);
    }
  }
  return new InjectHttpClient();
}

export function createBillingService(deps: BillingDeps): BillingService {
  const mode = deps.config.billing;
  const stripeConfig = mode === 'stripe' ? deps.config.stripe : undefined;
  // BILLING=off keeps a library pointed at the simulator's address, but never calls it
  const isSimulated = stripeConfig === undefined;
  const simulatorApiKey = `sk_test_sim_${derive(deps.config.hmacKey, 'billing-simulator-api')}`;
  const webhookSecret =
    stripeConfig?.webhookSecret ??
    `whsec_sim_${derive(deps.config.hmacKey, 'billing-simulator-webhook')}`;
  const stripe = isSimulated
    ? new Stripe(simulatorApiKey, {
        httpClient: simulatorHttpClient(deps.inject),
        host: 'billing-simulator.invalid',
        protocol: 'http',
        maxNetworkRetries: 0,
        telemetry: false,
      })
    : new Stripe(stripeConfig.secretKey, { maxNetworkRetries: 2, telemetry: false });

  const priceIdFor = (cents: number) =>
    isSimulated ? `price_sim_${cents}` : (stripeConfig.priceIds[cents] ?? '');

  async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    if (mode === 'off') throw billingIsOff();
    try {
      return await run();
    } catch (error) {
      if (error instanceof PqlFailure) throw error;
      deps.log.error({ err: error, what }, 'Stripe request failed');
      throw stripeFailure(error);
    }
  }

  return {
    mode,
    isSimulated: mode === 'simulator',
    webhookSecret,
    simulatorApiKey,
    stripe,
    priceIdFor,
    async createCheckout({ parentId, email, monthlyPriceCents, dashboardUrl }) {
      if (mode === 'off') throw billingIsOff();
      const price = priceIdFor(monthlyPriceCents);
      if (price === '') {
        throw new PqlFailure({
          id: '3c9e5a07',
          type: 'serverError',
          debugMessage: `No STRIPE_PRICE_IDS entry for a monthly price of ${monthlyPriceCents} cents`,
          showContactSupport: true,
        });
      }
      const session = await call('create checkout session', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price, quantity: 1 }],
          client_reference_id: parentId.toLowerCase(),
          customer_email: email,
          // how /stripe-events finds the family of this subscription's invoices (webhook.ts)
          subscription_data: { metadata: { [PARENT_ID_METADATA]: parentId.toLowerCase() } },
          success_url: `${dashboardUrl}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${dashboardUrl}/checkout-cancel?session_id={CHECKOUT_SESSION_ID}`,
        }),
      );
      return session.url ?? null;
    },
    async createPortal(subscriptionId, returnUrl) {
      const subscription = await this.subscription(subscriptionId);
      const portal = await call('create billing portal session', () =>
        stripe.billingPortal.sessions.create({
          customer: subscription.customerId,
          return_url: returnUrl,
        }),
      );
      return portal.url;
    },
    async checkoutSession(id) {
      if (mode === 'off') throw billingIsOff();
      if (!/^cs_\w{1,250}$/.test(id)) throw notFound('Checkout session');
      const session = await call('retrieve checkout session', async () => {
        try {
          return await stripe.checkout.sessions.retrieve(id);
        } catch (error) {
          if (isMissing(error)) throw notFound('Checkout session');
          throw error;
        }
      });
      const subscription = session.subscription;
      return {
        id: session.id,
        clientReferenceId: session.client_reference_id,
        subscriptionId:
          typeof subscription === 'string' ? subscription : (subscription?.id ?? null),
      };
    },
    async subscription(id) {
      const subscription = await call('retrieve subscription', () =>
        stripe.subscriptions.retrieve(id),
      );
      const customer = subscription.customer;
      const item = subscription.items?.data?.[0] as { current_period_end?: number } | undefined;
      const periodEnd =
        item?.current_period_end ??
        (subscription as unknown as { current_period_end?: number }).current_period_end;
      return {
        id: subscription.id,
        status: subscription.status,
        customerId: typeof customer === 'string' ? customer : customer.id,
        periodEnd: periodEnd === undefined ? undefined : new Date(periodEnd * 1000),
      };
    },
  };
}
