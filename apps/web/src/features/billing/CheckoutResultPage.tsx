import type { PqlError } from '@keyward/contract/errors';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { dashboardQueryKey, useLoggedOutRedirect } from '../../lib/api/hooks';
import { errorMessage } from '../../lib/errors';
import { handleCheckoutCancelOnce, handleCheckoutSuccessOnce } from './api';

export const CHECKOUT_CANCELLED = 'Payment setup cancelled';
export const CHECKOUT_SUCCEEDED = 'Your subscription is active!';
const NO_SESSION =
  "This page needs the payment provider's session. Please start again from Settings.";

const settingsLinkClasses = 'font-semibold text-violet-700 hover:text-violet-900 hover:underline';

/** /checkout-success and /checkout-cancel: Stripe (or the simulator) sends the parent back here. */
export default function CheckoutResultPage({ outcome }: { outcome: 'success' | 'cancel' }) {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const queryClient = useQueryClient();
  const redirectIfLoggedOut = useLoggedOutRedirect();
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'done' } | { status: 'failed'; error: PqlError | null }
  >(sessionId === '' ? { status: 'failed', error: null } : { status: 'loading' });

  useEffect(() => {
    if (sessionId === '') return;
    let isActive = true;
    const send = outcome === 'success' ? handleCheckoutSuccessOnce : handleCheckoutCancelOnce;
    send(sessionId).then(async (result) => {
      if (!isActive) return;
      if (result.type === 'error') {
        if (!redirectIfLoggedOut(result.error)) setState({ status: 'failed', error: result.error });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: dashboardQueryKey('GetAdmin') });
      if (isActive) setState({ status: 'done' });
    });
    return () => {
      isActive = false;
    };
  }, [sessionId, outcome, queryClient, redirectIfLoggedOut]);

  const backToSettings = (
    <Link to="/settings" className={settingsLinkClasses}>
      Back to Settings
    </Link>
  );

  if (state.status === 'loading') {
    return (
      <FullPageStatus
        status="loading"
        title={outcome === 'success' ? 'Confirming your subscription...' : 'One moment...'}
      />
    );
  }
  if (state.status === 'failed') {
    return (
      <FullPageStatus
        status="failure"
        message={state.error ? errorMessage(state.error) : NO_SESSION}
      >
        {backToSettings}
      </FullPageStatus>
    );
  }
  if (outcome === 'cancel') {
    return (
      <FullPageStatus
        status="failure"
        title={CHECKOUT_CANCELLED}
        message="No payment was taken. You can start your subscription from Settings whenever you are ready."
      >
        {backToSettings}
      </FullPageStatus>
    );
  }
  return (
    <FullPageStatus status="success" title={CHECKOUT_SUCCEEDED}>
      <p>Thank you! Your children stay protected without a break.</p>
      <p className="mt-4">{backToSettings}</p>
    </FullPageStatus>
  );
}
