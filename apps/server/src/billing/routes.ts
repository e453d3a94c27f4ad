import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../services/clock.ts';
import { registerBillingSimulator } from './simulator.ts';
import type { BillingService } from './stripe-service.ts';
import { registerStripeWebhook } from './webhook.ts';

/** The webhook in every mode; the simulator's API and pages when there is no Stripe key. */
export async function registerBilling(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock; billing: BillingService },
) {
  await registerStripeWebhook(app, deps);
  if (!deps.billing.isSimulated) return;
  const { billing, clock } = deps;
  if (deps.config.mode === 'production') {
    app.log.warn(
      'STRIPE_SECRET_KEY is not set: the billing simulator takes payments (none are real). Set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_IDS.',
    );
  }
  await registerBillingSimulator(app, {
    dataDir: deps.config.dataDir,
    publicUrl: deps.config.publicUrl,
    clock,
    apiKey: billing.simulatorApiKey,
    async deliverEvent(event) {
      const payload = JSON.stringify(event);
      const signature = billing.stripe.webhooks.generateTestHeaderString({
        payload,
        secret: billing.webhookSecret,
        timestamp: Math.floor(clock.now().getTime() / 1000),
      });
      const response = await app.inject({
        method: 'POST',
        url: '/stripe-events',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
      if (response.statusCode >= 300) {
        app.log.error(
          { status: response.statusCode, body: response.body },
          'billing simulator: /stripe-events refused the event',
        );
      }
    },
  });
}
