import { alertOperator } from '../../billing/operator.ts';
import { notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedParent } from '../ownership.ts';

// server-behaviour §8.2: the operator hears about an abandoned checkout of this parent.
export default dashboardResolver('HandleCheckoutCancel', async (input, ctx) => {
  const parent = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  const session = await ctx.services.billing.checkoutSession(input.stripeCheckoutSessionId);
  if (session.clientReferenceId?.toLowerCase() !== parent.id) throw notFound('Checkout session');
  await alertOperator(
    { config: ctx.config, email: ctx.services.email, log: ctx.log },
    { parentEmail: parent.email, message: `Checkout ${session.id} was cancelled.` },
  );
  return { success: true };
});
