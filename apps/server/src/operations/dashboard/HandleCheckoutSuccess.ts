import { becomesPaidOnCheckout, LIFECYCLE_DAYS } from '@keyward/domain/subscription';
import { alertOperator } from '../../billing/operator.ts';
import { addMs, DAY, toDbTime } from '../../db/values.ts';
import { notFound, serverError } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedParent } from '../ownership.ts';

// server-behaviour §8.2: the checkout must be this parent's (another parent's session is refused
// like a missing one); an active subscription makes the account paid for 33 days.
export default dashboardResolver('HandleCheckoutSuccess', async (input, ctx) => {
  const parent = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  const billing = ctx.services.billing;
  const session = await billing.checkoutSession(input.stripeCheckoutSessionId);
  if (session.clientReferenceId?.toLowerCase() !== parent.id) throw notFound('Checkout session');
  if (!session.subscriptionId) {
    throw serverError(
      '9e41b2c8',
      `Checkout session ${session.id} has no subscription`,
      "Your payment went through but we couldn't find the subscription yet. Please contact support.",
    );
  }
  const subscription = await billing.subscription(session.subscriptionId);
  if (becomesPaidOnCheckout(parent.subscription_status, subscription.status)) {
    const now = ctx.clock.now();
    await ctx.db.transaction().execute((trx) =>
      trx
        .updateTable('parents')
        .set({
          subscription_status: 'paid',
          subscription_id: subscription.id,
          subscription_status_expiration: toDbTime(
            addMs(now, LIFECYCLE_DAYS.paidWithoutPeriod * DAY),
          ),
          updated_at: toDbTime(now),
        })
        .where('id', '=', parent.id)
        .execute(),
    );
  } else {
    await alertOperator(
      { config: ctx.config, email: ctx.services.email, log: ctx.log },
      {
        parentEmail: parent.email,
        message: `Checkout ${session.id} succeeded with subscription ${subscription.id} (${subscription.status}) while the account is ${parent.subscription_status}; nothing was changed.`,
      },
    );
  }
  return { success: true };
});
