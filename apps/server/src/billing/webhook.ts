import { LIFECYCLE_DAYS, paidUntil } from '@keyward/domain/subscription';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import type { Db } from '../db/database.ts';
import { DAY, toDbJson, toDbTime } from '../db/values.ts';
import { badRequest } from '../pairql/errors.ts';
import type { Clock } from '../services/clock.ts';
import { newToken } from '../services/tokens.ts';
import type { BillingService } from './stripe-service.ts';

// POST /stripe-events (server-behaviour §8.2): the raw body is verified against Stripe-Signature
// (HMAC-SHA-256, v1 scheme, 5-minute tolerance) before anything is parsed; every verified event is
// stored once by its id, and a replayed id changes nothing.

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export interface WebhookDeps {
  db: Db;
  clock: Clock;
  billing: BillingService;
}

interface InvoiceLike {
  customer_email?: string | null;
  subscription?: string | { id: string } | null;
  parent?: {
    subscription_details?: { subscription?: string | { id: string } | null } | null;
  } | null;
  lines?: { data?: { period?: { end?: number } }[] };
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

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
      let event: Stripe.Event;
      try {
        event = deps.billing.stripe.webhooks.constructEvent(
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

      await deps.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        const stored = await trx
          .insertInto('stripe_events')
          .values({
            id: newToken(),
            stripe_event_id: event.id,
            type: event.type,
            payload: toDbJson(event),
            created_at: toDbTime(now),
          })
          .onConflict((oc) => oc.column('stripe_event_id').doNothing())
          .executeTakeFirst();
        if (Number(stored.numInsertedOrUpdatedRows ?? 0) !== 1) {
          request.log.info({ eventId: event.id }, 'Stripe event already handled');
          return;
        }
        if (event.type !== 'invoice.paid') return;

        const invoice = event.data.object as unknown as InvoiceLike;
        const subscriptionId =
          idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
        const email = invoice.customer_email?.toLowerCase();
        let parent = subscriptionId
          ? await trx
              .selectFrom('parents')
              .select(['id', 'subscription_id'])
              .where('subscription_id', '=', subscriptionId)
              .executeTakeFirst()
          : undefined;
        if (!parent && email) {
          parent = await trx
            .selectFrom('parents')
            .select(['id', 'subscription_id'])
            .where(sql<string>`lower(email)`, '=', email)
            .executeTakeFirst();
        }
        if (!parent) {
          request.log.warn(
            { eventId: event.id, subscriptionId },
            'invoice.paid for no known parent',
          );
          return;
        }
        const periodEnd = invoice.lines?.data?.[0]?.period?.end;
        const expiration =
          periodEnd === undefined
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
