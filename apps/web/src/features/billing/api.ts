import { callDashboard } from '../../lib/api/client';
import { runOnce } from '../../lib/one-shot';

// Checkout session ids are single-use on our side: each result is sent once, even when StrictMode
// runs the page's effect twice, and never retried (wire-contract §2.7).
export const handleCheckoutSuccessOnce = (sessionId: string) =>
  runOnce(`HandleCheckoutSuccess:${sessionId}`, () =>
    callDashboard('HandleCheckoutSuccess', { stripeCheckoutSessionId: sessionId }),
  );

export const handleCheckoutCancelOnce = (sessionId: string) =>
  runOnce(`HandleCheckoutCancel:${sessionId}`, () =>
    callDashboard('HandleCheckoutCancel', { stripeCheckoutSessionId: sessionId }),
  );
