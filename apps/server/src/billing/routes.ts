import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../services/clock.ts';
import { registerBillingSimulator } from './simulator.ts';
import type { BillingService } from '../services/billing.ts';
import { registerStripeWebhook } from './webhook.ts';

/**
 * BILLING=stripe: the webhook. BILLING=simulator: the webhook and the simulator's API and pages
 * (config.ts refuses the simulator in production). BILLING=off: neither; nothing is paid.
 */
export async function registerBilling(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock; billing: BillingService },
) {
  if (deps.billing.mode === 'off') return;
  await registerStripeWebhook(app, deps);
  if (!deps.billing.isSimulated) return;
  const { billing, clock } = deps;
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
