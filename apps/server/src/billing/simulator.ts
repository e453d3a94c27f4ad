import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../services/clock.ts';
import { SIMULATOR_PREFIX } from './stripe-service.ts';

// The built-in billing simulator (server-behaviour §8.2): without STRIPE_SECRET_KEY it stands in
// for Stripe. It answers the few Stripe REST endpoints the server uses (the Stripe library is
// pointed at it, see stripe-service.ts) and serves small pages where a parent completes or cancels
// a checkout, opens the billing portal and cancels the subscription. Completing a checkout posts a
// signed `invoice.paid` event to /stripe-events, as Stripe would. Its records are JSON files under
// DATA_DIR/billing-simulator (a local stand-in: one instance).

const PERIOD_SECONDS = 30 * 24 * 60 * 60;

interface SimCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  client_reference_id: string | null;
  customer_email: string | null;
  customer: string | null;
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  price: string;
  /** `subscription_data[metadata]`: becomes the subscription's metadata */
  subscription_metadata: Record<string, string>;
  url: string;
  created: number;
}

interface SimSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  customer_email: string | null;
  status: 'active' | 'canceled';
  price: string;
  metadata: Record<string, string>;
  created: number;
  canceled_at: number | null;
}

interface SimPortalSession {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string;
  url: string;
  created: number;
}

type SimObject = SimCheckoutSession | SimSubscription | SimPortalSession;

export interface SimulatorDeps {
  dataDir: string;
  /** the API's own public origin: the simulator's pages are served there */
  publicUrl: string;
  clock: Clock;
  apiKey: string;
  /** Sends one event to /stripe-events, signed like Stripe signs it. */
  deliverEvent(event: Record<string, unknown>): Promise<void>;
}

function createStore(dataDir: string) {
  const dir = path.join(dataDir, 'billing-simulator');
  const file = (id: string) => path.join(dir, `${id.replace(/[^A-Za-z0-9_]/g, '')}.json`);
  return {
    async get<T extends SimObject>(id: string, object: T['object']): Promise<T | undefined> {
      try {
        const found = JSON.parse(await readFile(file(id), 'utf8')) as SimObject;
        return found.object === object ? (found as T) : undefined;
      } catch {
        return undefined;
      }
    },
    async put(value: SimObject) {
      await mkdir(dir, { recursive: true });
      const temp = `${file(value.id)}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temp, JSON.stringify(value));
      await rename(temp, file(value.id));
    },
  };
}

const newId = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString('hex')}`;

/** The current period of a subscription at `now` (30-day periods from its start). */
function currentPeriod(subscription: SimSubscription, nowSeconds: number) {
  const at = subscription.canceled_at ?? nowSeconds;
  const elapsed = Math.max(0, at - subscription.created);
  const start = subscription.created + Math.floor(elapsed / PERIOD_SECONDS) * PERIOD_SECONDS;
  return { start, end: start + PERIOD_SECONDS };
}

function stripeSubscription(subscription: SimSubscription, nowSeconds: number) {
  const period = currentPeriod(subscription, nowSeconds);
  return {
    id: subscription.id,
    object: 'subscription',
    customer: subscription.customer,
    status: subscription.status,
    metadata: subscription.metadata,
    created: subscription.created,
    canceled_at: subscription.canceled_at,
    livemode: false,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${subscription.id.slice(4)}`,
          object: 'subscription_item',
          current_period_start: period.start,
          current_period_end: period.end,
          price: { id: subscription.price, object: 'price' },
        },
      ],
    },
  };
}

const apiError = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).send({
    error: {
      type: status === 404 ? 'invalid_request_error' : 'api_error',
      code,
      message,
    },
  });

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f5f3ff;color:#1e293b;margin:0;padding:2rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:1rem;padding:2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 .25rem}p{margin:.5rem 0}.note{font-size:.8rem;color:#475569}
button,a.button{display:inline-block;margin:.5rem .5rem 0 0;padding:.6rem 1rem;border-radius:.5rem;border:0;
font-size:1rem;cursor:pointer;text-decoration:none}.primary{background:#6d28d9;color:#fff}
.secondary{background:#e2e8f0;color:#1e293b}form{display:inline}</style></head>
<body><main><p class="note">Billing simulator: no payment is taken.</p>${body}</main></body></html>`;
}

const formatDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export async function registerBillingSimulator(app: FastifyInstance, deps: SimulatorDeps) {
  const store = createStore(deps.dataDir);
  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000);

  await app.register(
    async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );

      // ---- the Stripe REST endpoints the server uses (bearer: the simulator's API key)
      const api = (request: FastifyRequest, reply: FastifyReply) => {
        if (request.headers.authorization !== `Bearer ${deps.apiKey}`) {
          apiError(reply, 401, 'api_key_invalid', 'Invalid API key provided');
          return false;
        }
        return true;
      };
      type Form = Record<string, string | undefined>;

      scope.post('/v1/checkout/sessions', async (request, reply) => {
        if (!api(request, reply)) return reply;
        const form = (request.body ?? {}) as Form;
        const successUrl = form.success_url;
        const cancelUrl = form.cancel_url;
        const price = form['line_items[0][price]'];
        if (!successUrl || !cancelUrl || !price || form.mode !== 'subscription') {
          return apiError(
            reply,
            400,
            'parameter_missing',
            'mode, line_items, success_url and cancel_url are required',
          );
        }
        const id = newId('cs');
        const session: SimCheckoutSession = {
          id,
          object: 'checkout.session',
          mode: 'subscription',
          status: 'open',
          client_reference_id: form.client_reference_id ?? null,
          customer_email: form.customer_email ?? null,
          customer: null,
          subscription: null,
          success_url: successUrl,
          cancel_url: cancelUrl,
          price,
          subscription_metadata: Object.fromEntries(
            Object.entries(form).flatMap(([name, value]) => {
              const key = /^subscription_data\[metadata\]\[(\w{1,40})\]$/.exec(name)?.[1];
              return key && value !== undefined ? [[key, value]] : [];
            }),
          ),
          url: `${deps.publicUrl}${SIMULATOR_PREFIX}/checkout/${id}`,
          created: nowSeconds(),
        };
        await store.put(session);
        return session;
      });

      scope.get<{ Params: { id: string } }>('/v1/checkout/sessions/:id', async (request, reply) => {
        if (!api(request, reply)) return reply;
        const session = await store.get<SimCheckoutSession>(request.params.id, 'checkout.session');
        if (!session) return apiError(reply, 404, 'resource_missing', 'No such checkout.session');
        return session;
      });

      scope.get<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request, reply) => {
        if (!api(request, reply)) return reply;
        const subscription = await store.get<SimSubscription>(request.params.id, 'subscription');
        if (!subscription) return apiError(reply, 404, 'resource_missing', 'No such subscription');
        return stripeSubscription(subscription, nowSeconds());
      });

      scope.post('/v1/billing_portal/sessions', async (request, reply) => {
        if (!api(request, reply)) return reply;
        const form = (request.body ?? {}) as Form;
        if (!form.customer || !form.return_url) {
          return apiError(reply, 400, 'parameter_missing', 'customer and return_url are required');
        }
        const id = newId('bps');
        const portal: SimPortalSession = {
          id,
          object: 'billing_portal.session',
          customer: form.customer,
          return_url: form.return_url,
          url: `${deps.publicUrl}${SIMULATOR_PREFIX}/portal/${id}`,
          created: nowSeconds(),
        };
        await store.put(portal);
        return portal;
      });

      // ---- pages a parent sees instead of Stripe's
      const html = (reply: FastifyReply, status: number, body: string) =>
        reply.code(status).type('text/html; charset=utf-8').send(body);
      const missing = (reply: FastifyReply, what: string) =>
        html(
          reply,
          404,
          page('Not found', `<h1>${what} not found</h1><p>This link is unknown or expired.</p>`),
        );

      scope.get<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
        const session = await store.get<SimCheckoutSession>(request.params.id, 'checkout.session');
        if (!session) return missing(reply, 'Checkout');
        if (session.status !== 'open') {
          return html(
            reply,
            200,
            page(
              'Checkout finished',
              `<h1>This checkout is finished</h1>
<a class="button secondary" href="${escapeHtml(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id))}">Back to the dashboard</a>`,
            ),
          );
        }
        const cents = Number(session.price.replace(/^price_sim_/, '')) || 0;
        return html(
          reply,
          200,
          page(
            'Start your subscription',
            `<h1>Start your subscription</h1>
<p><strong>Basic plan</strong>: $${(cents / 100).toFixed(2)} per month</p>
<p>Account: ${escapeHtml(session.customer_email ?? '')}</p>
<form method="post" action="${SIMULATOR_PREFIX}/checkout/${session.id}/complete"><button class="primary" type="submit">Complete checkout</button></form>
<form method="post" action="${SIMULATOR_PREFIX}/checkout/${session.id}/cancel"><button class="secondary" type="submit">Cancel checkout</button></form>`,
          ),
        );
      });

      scope.post<{ Params: { id: string } }>('/checkout/:id/complete', async (request, reply) => {
        const session = await store.get<SimCheckoutSession>(request.params.id, 'checkout.session');
        if (!session) return missing(reply, 'Checkout');
        if (session.status === 'open') {
          const now = nowSeconds();
          const key = randomBytes(12).toString('hex');
          const subscription: SimSubscription = {
            id: `sub_sim_${key}`,
            object: 'subscription',
            customer: `cus_sim_${key}`,
            customer_email: session.customer_email,
            status: 'active',
            price: session.price,
            metadata: session.subscription_metadata ?? {},
            created: now,
            canceled_at: null,
          };
          await store.put(subscription);
          await store.put({
            ...session,
            status: 'complete',
            customer: subscription.customer,
            subscription: subscription.id,
          });
          const period = currentPeriod(subscription, now);
          await deps.deliverEvent({
            id: newId('evt'),
            object: 'event',
            type: 'invoice.paid',
            created: now,
            livemode: false,
            data: {
              object: {
                id: newId('in'),
                object: 'invoice',
                status: 'paid',
                customer: subscription.customer,
                customer_email: subscription.customer_email,
                parent: {
                  type: 'subscription_details',
                  subscription_details: {
                    subscription: subscription.id,
                    metadata: subscription.metadata,
                  },
                },
                lines: {
                  object: 'list',
                  data: [{ object: 'line_item', period: { start: period.start, end: period.end } }],
                },
              },
            },
          });
        }
        return reply.redirect(
          session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id),
          303,
        );
      });

      scope.post<{ Params: { id: string } }>('/checkout/:id/cancel', async (request, reply) => {
        const session = await store.get<SimCheckoutSession>(request.params.id, 'checkout.session');
        if (!session) return missing(reply, 'Checkout');
        if (session.status === 'open') await store.put({ ...session, status: 'expired' });
        return reply.redirect(session.cancel_url.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
      });

      scope.get<{ Params: { id: string } }>('/portal/:id', async (request, reply) => {
        const portal = await store.get<SimPortalSession>(
          request.params.id,
          'billing_portal.session',
        );
        if (!portal) return missing(reply, 'Billing portal session');
        const subscription = await findSubscriptionOf(portal.customer);
        const back = `<a class="button secondary" href="${escapeHtml(portal.return_url)}">Return to the dashboard</a>`;
        if (!subscription) {
          return html(
            reply,
            200,
            page('Billing portal', `<h1>Billing portal</h1><p>No subscription.</p>${back}`),
          );
        }
        const period = currentPeriod(subscription, nowSeconds());
        const status =
          subscription.status === 'active'
            ? `<p>Subscription: <strong>active</strong>, renews on ${formatDate(period.end)}</p>
<form method="post" action="${SIMULATOR_PREFIX}/portal/${portal.id}/cancel-subscription"><button class="secondary" type="submit">Cancel subscription</button></form>`
            : `<p>Subscription: <strong>canceled</strong> on ${formatDate(subscription.canceled_at ?? period.start)}</p>`;
        return html(
          reply,
          200,
          page(
            'Billing portal',
            `<h1>Billing portal</h1>
<p><strong>Basic plan</strong></p>${status}${back}`,
          ),
        );
      });

      scope.post<{ Params: { id: string } }>(
        '/portal/:id/cancel-subscription',
        async (request, reply) => {
          const portal = await store.get<SimPortalSession>(
            request.params.id,
            'billing_portal.session',
          );
          if (!portal) return missing(reply, 'Billing portal session');
          const subscription = await findSubscriptionOf(portal.customer);
          if (subscription?.status === 'active') {
            await store.put({ ...subscription, status: 'canceled', canceled_at: nowSeconds() });
          }
          return reply.redirect(`${SIMULATOR_PREFIX}/portal/${portal.id}`, 303);
        },
      );

      /** Each simulated customer has one subscription, with the same key (cus_sim_X, sub_sim_X). */
      async function findSubscriptionOf(customer: string) {
        return store.get<SimSubscription>(
          `sub_sim_${customer.slice('cus_sim_'.length)}`,
          'subscription',
        );
      }
    },
    { prefix: SIMULATOR_PREFIX },
  );
}
