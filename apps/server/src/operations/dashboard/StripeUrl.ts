import { billingLink } from '@keyward/domain/subscription';
import { alertOperator } from '../../billing/operator.ts';
import { serverError } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedParent } from '../ownership.ts';

// server-behaviour §3.10: a new checkout without a subscription, the billing portal with one.
export default dashboardResolver('StripeUrl', async (_input, ctx) => {
  const parent = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  const link = billingLink(parent.subscription_status, parent.subscription_id !== null);
  if (!link.isExpected) {
    ctx.log.warn(
      { status: parent.subscription_status, hasSubscription: parent.subscription_id !== null },
      `StripeUrl: unexpected status, falling back to the ${link.kind}`,
    );
  }
  const billing = ctx.services.billing;
  if (link.kind === 'portal' && parent.subscription_id !== null) {
    return {
      url: await billing.createPortal(parent.subscription_id, `${ctx.dashboardUrl}/settings`),
    };
  }
  const url = await billing.createCheckout({
    parentId: parent.id,
    email: parent.email,
    monthlyPriceCents: parent.monthly_price,
    dashboardUrl: ctx.dashboardUrl,
  });
  if (!url) {
    await alertOperator(
      { config: ctx.config, email: ctx.services.email, log: ctx.log },
      { parentEmail: parent.email, message: 'Stripe returned a checkout session without a URL.' },
    );
    throw serverError(
      'a2f4d6e1',
      'Checkout session has no URL',
      "We couldn't open the payment page. Please try again in a few minutes.",
    );
  }
  return { url };
});
