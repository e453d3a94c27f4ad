import type { SuspendFilterRequest } from '@keyward/contract/shared';
import {
  isSuspensionRequestExpired,
  shouldShowSuspensionRequestDate,
  suspensionDurationLabel,
} from '@keyward/domain/suspension-grant';
import { timeAgo } from '@keyward/domain/wording';
import { useParams } from 'react-router';
import { Card } from '../../components/ui/Card';
import { ChildText } from '../../components/ui/ChildText';
import { DetailRow } from '../../components/ui/DetailRow';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { RequestStatusBadge } from '../../components/ui/RequestStatusBadge';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage, errorTitle } from '../../lib/errors';
import { useSuspendFilterRequest } from './api';
import { SuspensionDecisionForm } from './SuspensionDecisionForm';

/** `/children/:userId/suspend-filter-requests/:requestId`: grant or deny a filter suspension. */
export default function SuspendFilterRequestPage({ now }: { now?: Date }) {
  const { userId = '', requestId = '' } = useParams();
  const request = useSuspendFilterRequest(requestId);

  if (request.isPending) return <Spinner className="h-8 w-8" label="Loading request..." />;
  if (request.isError) {
    if (request.error.type === 'loggedOut') return null; // the hook is already redirecting
    return (
      <FullPageStatus
        status="failure"
        title={errorTitle(request.error)}
        message={errorMessage(request.error)}
      />
    );
  }
  const shownAt = now ?? new Date();
  const data = request.data;

  return (
    <div className="max-w-2xl">
      <Card>
        <div className="flex items-start justify-between gap-3">
          <h1 className="text-xl font-bold text-slate-900">Suspend filter request</h1>
          {data.status !== 'pending' && <RequestStatusBadge status={data.status} />}
        </div>
        <RequestSummary request={data} now={shownAt} />
        {data.status !== 'pending' ? (
          <FinalStatus request={data} />
        ) : isSuspensionRequestExpired(data.createdAt, shownAt) ? (
          <div role="status" className="mt-6 rounded-xl bg-slate-100 p-4 text-sm text-slate-700">
            <p className="font-semibold text-slate-900">This request has expired</p>
            <p className="mt-1">
              Requests older than 2 hours can no longer be granted. {data.userName} can send a new
              one from their computer, iPhone or iPad.
            </p>
          </div>
        ) : (
          <SuspensionDecisionForm key={data.id} request={data} childId={userId} />
        )}
      </Card>
    </div>
  );
}

function RequestSummary({ request, now }: { request: SuspendFilterRequest; now: Date }) {
  return (
    <dl className="mt-2 divide-y divide-slate-100">
      <DetailRow label="Child">{request.userName}</DetailRow>
      {/* issue 32: what was asked stays visible after the decision, beside what was granted */}
      <DetailRow label="Requested duration">
        {suspensionDurationLabel(request.requestedDurationInSeconds)}
      </DetailRow>
      {request.grantedDurationInSeconds !== undefined && (
        <DetailRow label="Granted duration">
          {suspensionDurationLabel(request.grantedDurationInSeconds)}
        </DetailRow>
      )}
      {shouldShowSuspensionRequestDate(request.createdAt, now) && (
        <DetailRow label="Requested">
          <time dateTime={request.createdAt}>
            {timeAgo(request.createdAt, now)} ({new Date(request.createdAt).toLocaleString()})
          </time>
        </DetailRow>
      )}
      {request.requestComment && (
        <DetailRow label="Comment">
          <span className="italic">
            <ChildText text={`“${request.requestComment}”`} />
          </span>
        </DetailRow>
      )}
    </dl>
  );
}

function FinalStatus({ request }: { request: SuspendFilterRequest }) {
  return (
    <div role="status" className="mt-6 rounded-xl bg-slate-50 p-4 text-sm text-slate-700">
      <p className="font-semibold text-slate-900">
        {request.status === 'accepted'
          ? 'You granted this suspension.'
          : 'You denied this suspension.'}
      </p>
      {request.responseComment && <p className="mt-1">Your comment: “{request.responseComment}”</p>}
    </div>
  );
}
