import type { UnlockRequest } from '@keyward/contract/shared';
import { pluralise, timeAgo } from '@keyward/domain/wording';
import { unlockRequestTarget } from '@keyward/domain/unlock-request-list';
import { ArrowLeftIcon, ChevronRightIcon, KeyIcon } from '@heroicons/react/24/outline';
import { lazy, type ReactNode, Suspense, useId, useReducer } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ChildText } from '../../components/ui/ChildText';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { RequestStatusBadge } from '../../components/ui/RequestStatusBadge';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage, errorTitle, toPqlError } from '../../lib/errors';
import { useSession } from '../../lib/session-context';
import {
  useOwnKeychains,
  useSaveRequestKey,
  useUnlockRequest,
  useUpdateUnlockRequest,
} from './api';
import { childUnlockRequestsPath, unlockRequestPath } from './paths';
import {
  ALREADY_DECIDED_TAG,
  acceptInput,
  denyInput,
  initialDecisionState,
  isDeciding,
  remainingAcceptCalls,
  type SaveKeyInput,
  unlockRequestDecisionReducer,
} from './unlock-request-decision';
import { DetailRow } from '../../components/ui/DetailRow';

const EditRequestKey = lazy(() => import('./EditRequestKey'));

export type UnlockRequestStep = 'review' | 'select-keychain' | 'edit-key' | 'deny';

/**
 * `/children/:userId/unlock-requests/:requestId` and its sub-routes. The bare route sends a pending
 * request to its review and shows a decided one's final status; the sub-routes of a decided
 * request go back to that status.
 */
export default function UnlockRequestPage({ step, now }: { step?: UnlockRequestStep; now?: Date }) {
  const { requestId = '', keychainId = '' } = useParams();
  const request = useUnlockRequest(requestId);
  const [decision, dispatch] = useReducer(unlockRequestDecisionReducer, initialDecisionState);
  const saveKey = useSaveRequestKey();
  const updateRequest = useUpdateUnlockRequest();
  const ownKeychains = useOwnKeychains();
  const navigate = useNavigate();

  if (request.isPending) return <Spinner className="h-8 w-8" label="Loading unlock request..." />;
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
  const data = request.data;
  const base = unlockRequestPath(data);
  const shownAt = now ?? new Date();

  async function accept(key: SaveKeyInput, isKeySaved: boolean) {
    try {
      if (!isKeySaved) {
        await saveKey.mutateAsync(key);
        dispatch({ type: 'keySaved' });
      }
      const chosen = ownKeychains.data?.keychains.find((k) => k.summary.id === key.keychainId);
      await updateRequest.mutateAsync(acceptInput(data.id, key));
      dispatch({ type: 'acceptSucceeded' });
      toast.success(
        chosen && !chosen.children.includes(data.userId)
          ? `Unlock request accepted! ${data.userName} now has the ${chosen.summary.name} keychain.`
          : 'Unlock request accepted!',
      );
      navigate(childUnlockRequestsPath(data.userId), { replace: true });
    } catch (error) {
      failed(error, 'acceptFailed');
    }
  }

  /** A failure; a request someone decided first is read again and shown as decided. */
  function failed(error: unknown, type: 'acceptFailed' | 'denyFailed') {
    const problem = toPqlError(error);
    if (problem.tag === ALREADY_DECIDED_TAG) {
      dispatch({ type: 'decidedBefore', message: errorMessage(problem) });
      void request.refetch();
    } else {
      dispatch({ type, message: errorMessage(problem) });
    }
  }

  async function deny() {
    try {
      await updateRequest.mutateAsync(denyInput(data.id, decision));
      dispatch({ type: 'denySucceeded' });
      toast.success('Unlock request denied!');
      navigate(childUnlockRequestsPath(data.userId), { replace: true });
    } catch (error) {
      failed(error, 'denyFailed');
    }
  }

  function tryAgain() {
    dispatch({ type: 'tryAgainClicked' });
    if (decision.phase === 'acceptFailed' && decision.key) {
      void accept(decision.key, remainingAcceptCalls(decision)[0] === 'acceptRequest');
    } else if (decision.phase === 'denyFailed') {
      void deny();
    }
  }

  if (decision.phase === 'acceptFailed' || decision.phase === 'denyFailed') {
    return (
      <FullPageStatus
        status="failure"
        title={
          decision.phase === 'acceptFailed'
            ? 'Error accepting unlock request'
            : 'Error denying unlock request'
        }
        message={decision.error ?? ''}
      >
        <div className="flex flex-col items-center gap-3">
          <Button onClick={tryAgain}>Try again</Button>
          <Link to={base} className="font-semibold text-violet-700 hover:underline">
            Back to the request
          </Link>
        </div>
      </FullPageStatus>
    );
  }

  if (decision.phase === 'alreadyDecided') {
    return (
      <FinalStatus
        request={data}
        now={shownAt}
        notice={
          <>
            {decision.error}
            {decision.isKeySaved && decision.key && (
              <>
                {' '}
                The key you made was saved all the same: remove it from its keychain if{' '}
                {data.userName} should not have it.
              </>
            )}
          </>
        }
      />
    );
  }

  if (isDeciding(decision) && decision.isRetry) {
    return (
      <FullPageStatus
        status="loading"
        title={
          decision.phase === 'accepting'
            ? 'Accepting unlock request...'
            : 'Denying unlock request...'
        }
      />
    );
  }

  const isDecided = decision.phase === 'accepted' || decision.phase === 'denied';
  if (data.status !== 'pending' && !isDeciding(decision) && !isDecided) {
    return step === undefined ? (
      <FinalStatus request={data} now={shownAt} />
    ) : (
      <Navigate to={base} replace />
    );
  }
  if (step === undefined) return <Navigate to={`${base}/review`} replace />;

  return (
    <div className="max-w-3xl space-y-6">
      <Link
        to={childUnlockRequestsPath(data.userId)}
        className="inline-flex items-center gap-1 text-sm font-semibold text-violet-700 hover:underline"
      >
        <ArrowLeftIcon className="h-4 w-4" aria-hidden="true" />
        {data.userName}'s unlock requests
      </Link>
      {step === 'deny' ? (
        <DenyForm
          request={data}
          comment={decision.denyComment}
          onCommentChange={(comment) => dispatch({ type: 'denyCommentChanged', comment })}
          isDenying={decision.phase === 'denying'}
          onDeny={() => {
            dispatch({ type: 'denySubmitted' });
            void deny();
          }}
        />
      ) : (
        <RequestDetails request={data} now={shownAt}>
          {step === 'review' && (
            <>
              <LinkButton to={`${base}/deny`} variant="dangerSecondary">
                Deny
              </LinkButton>
              <LinkButton to={`${base}/select-keychain`}>Accept</LinkButton>
            </>
          )}
        </RequestDetails>
      )}
      {(step === 'select-keychain' || step === 'edit-key') && <SelectKeychain request={data} />}
      {step === 'edit-key' && (
        <Suspense fallback={<Spinner className="h-6 w-6" label="Loading the key editor..." />}>
          <EditRequestKey
            key={keychainId}
            request={data}
            keychainId={keychainId}
            onClose={() => navigate(`${base}/select-keychain`)}
            onSave={async (key) => {
              dispatch({ type: 'acceptSubmitted', key });
              await accept(key, decision.isKeySaved && decision.key?.id === key.id);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

function targetHref(request: UnlockRequest): string | undefined {
  if (request.url && /^https?:\/\//i.test(request.url)) return request.url;
  if (request.domain) return `https://${request.domain}`;
  return undefined;
}

/** Child, time, comment, a link to the target, the app, and the app's details on demand. */
function RequestDetails({
  request,
  now,
  children,
}: {
  request: UnlockRequest;
  now: Date;
  children?: ReactNode;
}) {
  const href = targetHref(request);
  const target = unlockRequestTarget(request);
  return (
    <Card>
      <div className="flex items-start justify-between gap-3">
        <h1 className="text-xl font-bold text-slate-900">Unlock request</h1>
        <RequestStatusBadge status={request.status} />
      </div>
      <dl className="mt-2 divide-y divide-slate-100">
        <DetailRow label="Child">{request.userName}</DetailRow>
        <DetailRow label="Requested">
          <time dateTime={request.createdAt}>
            {timeAgo(request.createdAt, now)} ({new Date(request.createdAt).toLocaleString()})
          </time>
        </DetailRow>
        {request.requestComment && (
          <DetailRow label="Comment">
            <span className="italic">
              <ChildText text={`“${request.requestComment}”`} />
            </span>
          </DetailRow>
        )}
        <DetailRow label="Wants to reach">
          {href ? (
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              className="font-mono break-all text-violet-700 hover:underline"
            >
              <ChildText text={target} />
            </a>
          ) : (
            <span className="font-mono break-all">
              <ChildText text={target} />
            </span>
          )}
        </DetailRow>
        <DetailRow label="App">
          <ChildText text={request.appName ?? request.appBundleId ?? 'Unknown app'} />
        </DetailRow>
      </dl>
      <details className="mt-2 rounded-lg bg-slate-50 px-4 py-2 text-sm">
        <summary className="cursor-pointer font-semibold text-slate-700">App details</summary>
        <dl className="mt-2 divide-y divide-slate-200">
          <DetailRow label="Category">
            {request.appCategories.length > 0 ? request.appCategories.join(', ') : 'Unknown'}
          </DetailRow>
          <DetailRow label="Bundle ID">
            <ChildText text={request.appBundleId ?? 'Unknown'} />
          </DetailRow>
          <DetailRow label="URL">
            <ChildText text={request.url ?? 'None'} />
          </DetailRow>
          <DetailRow label="Domain">
            <ChildText text={request.domain ?? 'None'} />
          </DetailRow>
          <DetailRow label="IP">{request.ipAddress ?? 'None'}</DetailRow>
        </dl>
      </details>
      {children && (
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          {children}
        </div>
      )}
    </Card>
  );
}

function FinalStatus({
  request,
  now,
  notice,
}: {
  request: UnlockRequest;
  now: Date;
  /** why the parent's own decision was not taken (issue 19) */
  notice?: ReactNode;
}) {
  return (
    <div className="max-w-3xl space-y-6">
      <Link
        to={childUnlockRequestsPath(request.userId)}
        className="inline-flex items-center gap-1 text-sm font-semibold text-violet-700 hover:underline"
      >
        <ArrowLeftIcon className="h-4 w-4" aria-hidden="true" />
        {request.userName}'s unlock requests
      </Link>
      {notice && (
        <p role="alert" className="rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
          {notice}
        </p>
      )}
      <RequestDetails request={request} now={now} />
      {request.status !== 'pending' && (
        <p className="text-sm text-slate-600" role="status">
          This request was {request.status === 'accepted' ? 'accepted' : 'denied'}.
        </p>
      )}
    </div>
  );
}

/** The accept flow's second step: one of the parent's own keychains receives the new key. */
function SelectKeychain({ request }: { request: UnlockRequest }) {
  const keychains = useOwnKeychains();
  const { session } = useSession();
  const base = unlockRequestPath(request);
  const { keychainId } = useParams();

  if (keychains.isPending) return <Spinner className="h-6 w-6" label="Loading keychains..." />;
  if (keychains.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {errorMessage(keychains.error)}
      </p>
    );
  }
  // the child's own keychains first (issue 32): a key there applies without giving anything new
  const own = keychains.data.keychains
    .filter((keychain) => !session || keychain.summary.parentId === session.adminId)
    .sort(
      (a, b) =>
        Number(b.children.includes(request.userId)) - Number(a.children.includes(request.userId)),
    );
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Choose a keychain</h2>
      {own.length === 0 ? (
        <div className="mt-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900" role="alert">
          <p>
            {request.userName} needs at least one keychain before you can accept this request.
            Create a keychain, then come back to accept it.
          </p>
          <LinkButton to="/keychains/new" size="sm" className="mt-3">
            Create a keychain
          </LinkButton>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-500">
            The new key goes into the keychain you choose. If {request.userName} does not have that
            keychain yet, accepting gives it to them (always on), so the key applies at once.
          </p>
          <ul className="mt-4 space-y-2">
            {own.map(({ summary, children }) => (
              <li key={summary.id}>
                <Link
                  to={`${base}/edit-key/${summary.id}`}
                  aria-current={summary.id === keychainId ? 'true' : undefined}
                  className="flex items-center gap-3 rounded-xl px-4 py-3 ring-1 ring-slate-200 hover:bg-violet-50 hover:ring-violet-300 focus-visible:outline-2 focus-visible:outline-violet-500 aria-[current]:bg-violet-50 aria-[current]:ring-violet-400"
                >
                  <KeyIcon className="h-5 w-5 shrink-0 text-violet-600" aria-hidden="true" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900">
                      {summary.name}
                    </span>
                    <span className="block text-xs text-slate-600">
                      {pluralise(summary.numKeys, 'key')}
                      {children.includes(request.userId)
                        ? ` · ${request.userName} has it`
                        : ` · accepting gives it to ${request.userName}`}
                    </span>
                  </span>
                  <ChevronRightIcon className="h-4 w-4 text-slate-400" aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

function DenyForm({
  request,
  comment,
  onCommentChange,
  isDenying,
  onDeny,
}: {
  request: UnlockRequest;
  comment: string;
  onCommentChange: (comment: string) => void;
  isDenying: boolean;
  onDeny: () => void;
}) {
  const id = useId();
  const base = unlockRequestPath(request);
  return (
    <Card>
      <h1 className="text-xl font-bold text-slate-900">Deny unlock request</h1>
      <p className="mt-1 text-sm text-slate-600">
        {request.userName} asked to reach{' '}
        <span className="font-mono break-all">
          <ChildText text={unlockRequestTarget(request)} />
        </span>
        .
      </p>
      <div className="mt-4">
        <div className="mb-1 flex items-baseline justify-between">
          <label htmlFor={id} className="block text-sm font-medium text-slate-700">
            Comment for {request.userName}
          </label>
          <span className="text-xs text-slate-500">*optional</span>
        </div>
        <textarea
          id={id}
          rows={3}
          maxLength={2000}
          value={comment}
          onChange={(event) => onCommentChange(event.target.value)}
          placeholder="Why not, this time"
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
        />
        <p className="mt-1 text-xs text-slate-500">{request.userName} sees this comment.</p>
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <LinkButton to={`${base}/review`} variant="secondary">
          Cancel
        </LinkButton>
        <Button variant="danger" onClick={onDeny} isLoading={isDenying}>
          Deny request
        </Button>
      </div>
    </Card>
  );
}
