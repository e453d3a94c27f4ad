import type Stripe from 'stripe';
import type { BillingMode } from '../config.ts';

// What the server asks of billing (server-behaviour §8.2), as every request and job sees it
// (`ctx.services.billing`). Its one implementation is billing/stripe-service.ts: Stripe, the
// built-in simulator, or nothing to pay (BILLING=off).

export interface CheckoutSessionFacts {
  id: string;
  clientReferenceId: string | null;
  subscriptionId: string | null;
}

export interface SubscriptionFacts {
  id: string;
  status: string;
  customerId: string;
  /** End of the current billing period. */
  periodEnd: Date | undefined;
}

export interface BillingService {
  mode: BillingMode;
  isSimulated: boolean;
  /** Signing secret of `POST /stripe-events`. */
  webhookSecret: string;
  /** Bearer key the simulator's API accepts (the simulator mode only). */
  simulatorApiKey: string;
  stripe: Stripe;
  priceIdFor(monthlyPriceCents: number): string;
  createCheckout(input: {
    parentId: string;
    email: string;
    monthlyPriceCents: number;
    dashboardUrl: string;
  }): Promise<string | null>;
  createPortal(subscriptionId: string, returnUrl: string): Promise<string>;
  checkoutSession(id: string): Promise<CheckoutSessionFacts>;
  subscription(id: string): Promise<SubscriptionFacts>;
}
