import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { toDbTime } from '../src/db/values.ts';
import { createTestServer } from './harness.ts';

// POST /stripe-events with a configured Stripe webhook secret (no network: the webhook never
// calls Stripe). Signatures are computed here by hand, as Stripe computes them.

const SECRET = 'whsec_test_0123456789abcdef';
const server = await createTestServer({
  env: {
    STRIPE_SECRET_KEY: 'sk_test_keyward_tests',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_PRICE_IDS: '1000=price_basic',
  },
});
afterAll(() => server.close());

const DAY = 86_400_000;
let eventCounter = 0;

/** `parentId`: the family id StripeUrl's checkout put in the subscription's metadata. */
function invoicePaid(options: {
  email?: string;
  subscription?: string;
  parentId?: string;
  periodEnd?: number;
}) {
  eventCounter += 1;
  return {
    id: `evt_test_${eventCounter}_${Date.now()}`,
    object: 'event',
    type: 'invoice.paid',
    created: Math.floor(server.clock.now().getTime() / 1000),
    data: {
      object: {
        id: `in_test_${eventCounter}`,
        object: 'invoice',
        customer: 'cus_test_1',
        customer_email: options.email ?? null,
        parent: options.subscription
          ? {
              type: 'subscription_details',
              subscription_details: {
                subscription: options.subscription,
                metadata: options.parentId ? { keyward_parent_id: options.parentId } : {},
              },
            }
          : null,
        lines: {
          object: 'list',
          data:
            options.periodEnd === undefined
              ? []
              : [{ period: { start: 0, end: options.periodEnd } }],
        },
      },
    },
  };
}

function sign(payload: string, secret = SECRET, at = server.clock.now()) {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

function post(payload: string, signature: string | undefined) {
  return server.app.inject({
    method: 'POST',
    url: '/stripe-events',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
}

async function trialingParent() {
  const parent = await server.signUpVerifiedParent();
  return parent;
}

async function parentRow(id: string) {
  return server.db.selectFrom('parents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function storedEvents() {
  return server.db.selectFrom('stripe_events').select(['stripe_event_id', 'type']).execute();
}

describe('POST /stripe-events', () => {
  test("a good signature: stored, and the family named in the subscription's metadata is paid until period end + 2 days", async () => {
    const parent = await trialingParent();
    const periodEnd = Math.floor((server.clock.now().getTime() + 30 * DAY) / 1000);
    const event = invoicePaid({
      email: parent.email,
      subscription: 'sub_test_good',
      parentId: parent.adminId,
      periodEnd,
    });
    const payload = JSON.stringify(event);
    const response = await post(payload, sign(payload));
    expect(response.statusCode).toBe(204);
    const row = await parentRow(parent.adminId);
    expect(row.subscription_status).toBe('paid');
    expect(row.subscription_id).toBe('sub_test_good');
    expect(row.subscription_status_expiration).toBe(toDbTime(new Date(periodEnd * 1000 + 2 * DAY)));
    expect(await storedEvents()).toContainEqual({
      stripe_event_id: event.id,
      type: 'invoice.paid',
    });
  });

  test('the subscription id finds the parent first; no period → paid for 33 days', async () => {
    const parent = await trialingParent();
    await server.db
      .updateTable('parents')
      .set({ subscription_id: 'sub_test_known', subscription_status: 'overdue' })
      .where('id', '=', parent.adminId)
      .execute();
    const payload = JSON.stringify(
      invoicePaid({ email: 'someone-else@example.com', subscription: 'sub_test_known' }),
    );
    expect((await post(payload, sign(payload))).statusCode).toBe(204);
    const row = await parentRow(parent.adminId);
    expect(row.subscription_status).toBe('paid');
    expect(row.subscription_status_expiration).toBe(
      toDbTime(new Date(server.clock.now().getTime() + 33 * DAY)),
    );
  });

  test('a tampered body is refused with 400 before anything is stored', async () => {
    const parent = await trialingParent();
    const event = invoicePaid({ email: 'nobody@example.com', subscription: 'sub_test_t' });
    const signature = sign(JSON.stringify(event));
    const tampered = JSON.stringify({
      ...event,
      data: { object: { ...event.data.object, customer_email: parent.email } },
    });
    const response = await post(tampered, signature);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ id: '5b1e0c77', type: 'badRequest' });
    expect(JSON.parse(response.body).userMessage).toBeTruthy();
    expect((await parentRow(parent.adminId)).subscription_status).toBe('trialing');
    expect((await storedEvents()).map((e) => e.stripe_event_id)).not.toContain(event.id);
  });

  test('a signature older than 5 minutes is refused; 4 minutes is fine', async () => {
    const parent = await trialingParent();
    const stale = JSON.stringify(
      invoicePaid({ subscription: 'sub_test_stale', parentId: parent.adminId }),
    );
    const sixMinutesAgo = new Date(server.clock.now().getTime() - 6 * 60_000);
    expect((await post(stale, sign(stale, SECRET, sixMinutesAgo))).statusCode).toBe(400);
    expect((await parentRow(parent.adminId)).subscription_status).toBe('trialing');

    const recent = JSON.stringify(
      invoicePaid({ subscription: 'sub_test_recent', parentId: parent.adminId }),
    );
    const fourMinutesAgo = new Date(server.clock.now().getTime() - 4 * 60_000);
    expect((await post(recent, sign(recent, SECRET, fourMinutesAgo))).statusCode).toBe(204);
    expect((await parentRow(parent.adminId)).subscription_status).toBe('paid');
  });

  test('a replayed event id is accepted once and changes nothing the second time', async () => {
    const parent = await trialingParent();
    const payload = JSON.stringify(
      invoicePaid({ subscription: 'sub_test_r', parentId: parent.adminId }),
    );
    expect((await post(payload, sign(payload))).statusCode).toBe(204);
    expect((await parentRow(parent.adminId)).subscription_status).toBe('paid');
    // the parent's account moves on (say the subscription lapsed); the old event comes again
    await server.db
      .updateTable('parents')
      .set({ subscription_status: 'overdue' })
      .where('id', '=', parent.adminId)
      .execute();
    server.clock.advance(60_000);
    expect((await post(payload, sign(payload))).statusCode).toBe(204);
    expect((await parentRow(parent.adminId)).subscription_status).toBe('overdue');
    const id = JSON.parse(payload).id;
    expect((await storedEvents()).filter((e) => e.stripe_event_id === id)).toHaveLength(1);
  });

  test.each([
    ['no signature header', undefined],
    ['another secret', 'other'],
    ['garbage', 'not-a-signature'],
  ])('%s → 400', async (_name, kind) => {
    const payload = JSON.stringify(invoicePaid({ email: 'x@example.com' }));
    const signature =
      kind === undefined ? undefined : kind === 'other' ? sign(payload, 'whsec_other') : kind;
    const response = await post(payload, signature);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).type).toBe('badRequest');
  });

  test("an unknown subscription is never matched by email: no family's status changes", async () => {
    const parent = await trialingParent();
    for (const email of [parent.email, parent.email.toUpperCase()]) {
      const payload = JSON.stringify(
        invoicePaid({ email, subscription: `sub_test_elsewhere_${eventCounter}` }),
      );
      expect((await post(payload, sign(payload))).statusCode).toBe(204);
    }
    // nor a family id that is not one (or not an id at all)
    for (const parentId of ['6f1c1b3e-3d5e-4a4f-9a7e-0c2d3e4f5a6b', "x' or 1=1 --"]) {
      const payload = JSON.stringify(invoicePaid({ email: parent.email, parentId }));
      expect((await post(payload, sign(payload))).statusCode).toBe(204);
    }
    const row = await parentRow(parent.adminId);
    expect(row.subscription_status).toBe('trialing');
    expect(row.subscription_id).toBeNull();
  });

  // each is signed with the right secret: the signature holds, the content does not
  const valid = () => invoicePaid({ subscription: 'sub_test_shape' });
  test.each<[string, () => unknown]>([
    ['an empty object', () => ({})],
    ['an array', () => []],
    ['null', () => null],
    ['a number', () => 42],
    ['data: null', () => ({ ...valid(), data: null })],
    ['data.object: null', () => ({ ...valid(), data: { object: null } })],
    ['an object id', () => ({ ...valid(), id: { evil: true } })],
    ['a numeric id', () => ({ ...valid(), id: 12 })],
    ['no type', () => ({ ...valid(), type: undefined })],
    [
      'a numeric customer_email',
      () => ({ ...valid(), data: { object: { ...valid().data.object, customer_email: 5 } } }),
    ],
    [
      'an object subscription without id',
      () => ({ ...valid(), data: { object: { subscription: { nope: 1 } } } }),
    ],
    [
      'a period end that is text',
      () => ({
        ...valid(),
        data: { object: { lines: { data: [{ period: { end: 'tomorrow' } }] } } },
      }),
    ],
    [
      'a period end past the year 9999',
      () => ({ ...valid(), data: { object: { lines: { data: [{ period: { end: 1e15 } }] } } } }),
    ],
  ])('a signed event with %s → 400, nothing stored', async (_what, make) => {
    const before = (await storedEvents()).length;
    const payload = JSON.stringify(make());
    const response = await post(payload, sign(payload));
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      id: '5b1e0c78',
      type: 'badRequest',
      userMessage: 'This payment notification could not be read.',
    });
    expect((await storedEvents()).length).toBe(before);
  });

  test('other event types are stored and ignored', async () => {
    const event = {
      id: 'evt_test_other',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    };
    const payload = JSON.stringify(event);
    expect((await post(payload, sign(payload))).statusCode).toBe(204);
    expect(await storedEvents()).toContainEqual({
      stripe_event_id: 'evt_test_other',
      type: 'customer.created',
    });
  });

  test('with a Stripe key the billing simulator is off', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/billing-simulator/checkout/cs_sim_x',
    });
    // (whatever the SPA fallback answers, it is not the simulator's page)
    expect(response.body).not.toContain('Billing simulator');
    const api = await server.app.inject({
      method: 'POST',
      url: '/billing-simulator/v1/checkout/sessions',
      payload: 'mode=subscription',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(api.statusCode).toBe(404);
  });
});

describe('Stripe configuration', () => {
  const base = {
    NODE_ENV: 'test',
    HMAC_KEY: 'a'.repeat(64),
    ENCRYPTION_KEY: 'b'.repeat(64),
    DATA_DIR: server.config.dataDir,
  };

  test('no key: the simulator', () => {
    expect(loadConfig(base).stripe).toBeUndefined();
  });

  test('a key with its secret and prices', () => {
    expect(
      loadConfig({
        ...base,
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
        STRIPE_PRICE_IDS: '1000=price_ten, 500=price_five',
      }).stripe,
    ).toEqual({
      secretKey: 'sk_live_abc',
      webhookSecret: 'whsec_abc',
      priceIds: { 1000: 'price_ten', 500: 'price_five' },
    });
  });

  test.each([
    [{ STRIPE_SECRET_KEY: 'pk_live_abc' }, 'STRIPE_SECRET_KEY'],
    [
      { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PRICE_IDS: '1000=price_x' },
      'STRIPE_WEBHOOK_SECRET',
    ],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x' }, 'STRIPE_PRICE_IDS'],
    [
      {
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_PRICE_IDS: 'ten dollars',
      },
      'STRIPE_PRICE_IDS',
    ],
  ])('%j stops start-up naming %s', (env, variable) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(variable);
  });
});
