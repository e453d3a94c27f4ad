import type { AdminSubscriptionStatus } from '@keyward/contract/shared';
import {
  type LinkRequestState,
  subscriptionBadge,
  subscriptionLinkText,
} from '@keyward/domain/subscription';
import { Badge } from '../../components/ui/Badge';
import { Card } from '../../components/ui/Card';
import { useStripeUrl } from './api';

const linkClasses =
  'text-sm font-semibold text-violet-700 hover:text-violet-900 hover:underline disabled:cursor-wait disabled:text-slate-500 disabled:no-underline';

/**
 * Settings' plan card: 'Basic plan', the monthly price, the status badge and the billing link. A
 * complimentary account has no price and no link: nothing asks for money.
 */
export function PlanCard({
  status,
  monthlyPriceInDollars,
  canManageBilling = true,
}: {
  status: AdminSubscriptionStatus;
  monthlyPriceInDollars: number;
  /** false for a co-parent (issue 12): billing is the account owner's */
  canManageBilling?: boolean;
}) {
  const stripeUrl = useStripeUrl();
  const badge = subscriptionBadge(status);
  const request: LinkRequestState = stripeUrl.isPending
    ? { state: 'ongoing' }
    : stripeUrl.isError
      ? { state: 'failed' }
      : stripeUrl.isSuccess
        ? { state: 'succeeded', url: stripeUrl.data.url }
        : { state: 'idle' };
  const linkText = subscriptionLinkText(badge, request);
  const price = Number.isInteger(monthlyPriceInDollars)
    ? `$${monthlyPriceInDollars}`
    : `$${monthlyPriceInDollars.toFixed(2)}`;

  return (
    <Card className="mt-6">
      <h2 className="text-lg font-semibold text-slate-900">Plan</h2>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            Basic plan <Badge tone={badge.tone}>{badge.label}</Badge>
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {/* complimentary: the operator's gift, or a server without billing (BILLING=off) */}
            {status.case === 'complimentary' ? 'Nothing to pay' : `${price} per month`}
          </p>
        </div>
        {!canManageBilling && (
          <p className="text-sm text-slate-600">Only the account owner can manage billing.</p>
        )}
        {canManageBilling &&
          linkText !== undefined &&
          (request.state === 'succeeded' ? (
            <a href={request.url} className={linkClasses}>
              {linkText}
            </a>
          ) : (
            <button
              type="button"
              className={`text-left ${linkClasses}`}
              disabled={request.state === 'ongoing'}
              aria-live="polite"
              onClick={() => stripeUrl.mutate(undefined)}
            >
              {linkText}
            </button>
          ))}
      </div>
    </Card>
  );
}
