import { LIFECYCLE_DAYS, paidUntil } from '@keyward/domain/subscription';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { DAY, toDbJson, toDbTime } from '../db/values.ts';
import { badRequest } from '../pairql/errors.ts';
import type { Clock } from '../services/clock.ts';
import { isUuid, newToken } from '../services/tokens.ts';
import type { BillingService } from '../services/billing.ts';
import { PARENT_ID_METADATA } from './stripe-service.ts';

// POST /stripe-events (server-behaviour §8.2): the raw body is verified against Stripe-Signature
// (HMAC-SHA-256, v1 scheme, 5-minute tolerance) before anything is parsed; a verified event must
// then have the shape the server reads (else 400, never a 500); every event is stored once by its
// id, and a replayed id changes nothing.
//
// An `invoice.paid` finds its family by the subscription id the family already has, else by the
// family id the server put in the subscription's metadata when it opened the checkout
// (`keyward_parent_id`, copied by Stripe onto every invoice). Never by email: an invoice of a
// subscription the server did not start (another product of the same Stripe account, an address
// typed by someone else) must not make a family paid.

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export interface WebhookDeps {
  db: Db;
  clock: Clock;
  billing: BillingService;
}

const StripeId = z.string().min(1).max(255);
const Reference = z.union([StripeId, z.object({ id: StripeId })]).nullish();
const Metadata = z.record(z.string(), z.string()).nullish();
/** Seconds since 1970, up to the year 9999. */
const UnixSeconds = z.number().int().min(0).max(253_402_300_799);

/** What the server reads of any event. */
const EventShape = z.object({
  id: StripeId,
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** What the server reads of an `invoice.paid` invoice (current and older API versions). */
const PaidInvoice = z.object({
  customer_email: z.string().nullish(),
  subscription: Reference,
  subscription_details: z.object({ metadata: Metadata }).nullish(),
  parent: z
    .object({
      subscription_details: z.object({ subscription: Reference, metadata: Metadata }).nullish(),
    })
    .nullish(),
  lines: z
    .object({
      data: z.array(z.object({ period: z.object({ end: UnixSeconds }).nullish() })),
    })
    .nullish(),
});
type PaidInvoice = z.infer<typeof PaidInvoice>;

const idOf = (value: z.infer<typeof Reference>) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

const malformed = (problem: string) =>
  badRequest(
    '5b1e0c78',
    `Stripe event malformed: ${problem}`,
    'This payment notification could not be read.',
  );

function readEvent(event: unknown): { id: string; type: string; invoice?: PaidInvoice } {
  const parsed = EventShape.safeParse(event);
  if (!parsed.success) throw malformed(z.prettifyError(parsed.error));
  const { id, type, data } = parsed.data;
  if (type !== 'invoice.paid') return { id, type };
  const invoice = PaidInvoice.safeParse(data.object);
  if (!invoice.success) throw malformed(`invoice: ${z.prettifyError(invoice.error)}`);
  return { id, type, invoice: invoice.data };
}

export async function registerStripeWebhook(app: FastifyInstance, deps: WebhookDeps) {
  await app.register(async (scope) => {
    // The signature covers the exact bytes: keep the body as a string, whatever its type says.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );

    scope.post('/stripe-events', async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['stripe-signature'];
      let verified: Stripe.Event;
      try {
        verified = deps.billing.stripe.webhooks.constructEvent(
          raw,
          typeof signature === 'string' ? signature : '',
          deps.billing.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          deps.clock.now().getTime(),
        );
      } catch (error) {
        request.log.warn({ err: error }, 'Stripe webhook refused: bad signature');
        const failure = badRequest(
          '5b1e0c77',
          `Stripe signature verification failed: ${(error as Error).message}`,
          'This payment notification could not be verified.',
        );
        return reply.code(400).send(failure.body(request.id));
      }
      let event: ReturnType<typeof readEvent>;
      try {
        event = readEvent(verified);
      } catch (error) {
        request.log.warn({ err: error }, 'Stripe webhook refused: malformed event');
        return reply.code(400).send((error as ReturnType<typeof malformed>).body(request.id));
      }

      await deps.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        const stored = await trx
          .insertInto('stripe_events')
          .values({
            id: newToken(),
            stripe_event_id: event.id,
            type: event.type,
            payload: toDbJson(verified),
            created_at: toDbTime(now),
          })
          .onConflict((oc) => oc.column('stripe_event_id').doNothing())
          .executeTakeFirst();
        if (Number(stored.numInsertedOrUpdatedRows ?? 0) !== 1) {
          request.log.info({ eventId: event.id }, 'Stripe event already handled');
          return;
        }
        const invoice = event.invoice;
        if (!invoice) return;

        const subscriptionId =
          idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
        const metadata =
          invoice.parent?.subscription_details?.metadata ?? invoice.subscription_details?.metadata;
        const startedFor = metadata?.[PARENT_ID_METADATA]?.toLowerCase();
        let parent = subscriptionId
          ? await trx
              .selectFrom('parents')
              .select(['id', 'subscription_id'])
              .where('subscription_id', '=', subscriptionId)
              .executeTakeFirst()
          : undefined;
        if (!parent && startedFor !== undefined && isUuid(startedFor)) {
          parent = await trx
            .selectFrom('parents')
            .select(['id', 'subscription_id'])
            .where('id', '=', startedFor)
            .executeTakeFirst();
        }
        if (!parent) {
          request.log.warn(
            { eventId: event.id, subscriptionId },
            'invoice.paid of a subscription this server did not start: no family changed',
          );
          return;
        }
        const periodEnd = invoice.lines?.data?.[0]?.period?.end;
        const expiration =
          periodEnd == null
            ? new Date(now.getTime() + LIFECYCLE_DAYS.paidWithoutPeriod * DAY)
            : paidUntil(new Date(periodEnd * 1000), now);
        await trx
          .updateTable('parents')
          .set({
            subscription_status: 'paid',
            subscription_status_expiration: toDbTime(expiration),
            subscription_id: parent.subscription_id ?? subscriptionId ?? null,
            updated_at: toDbTime(now),
          })
          .where('id', '=', parent.id)
          .execute();
      });
      return reply.code(204).send();
    });
  });
}
