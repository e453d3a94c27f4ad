import type { UnlockRequest } from '@keyward/contract/shared';
import { unlockRequestTarget } from '@keyward/domain/unlock-request-list';
import { timeAgo } from '@keyward/domain/wording';
import { LinkButton } from '../../components/ui/Button';
import { ChildText } from '../../components/ui/ChildText';
import { RequestStatusBadge } from '../../components/ui/RequestStatusBadge';
import { unlockRequestPath } from './paths';

/** One request in a list: child, time ago, target, comment, and Deny / Accept or the outcome. */
export function UnlockRequestCard({ request, now }: { request: UnlockRequest; now: Date }) {
  const titleId = `unlock-request-${request.id}`;
  const base = unlockRequestPath(request);
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="truncate font-semibold text-slate-900">
            {request.userName}
          </h2>
          <p className="text-xs text-slate-500">
            <time dateTime={request.createdAt} title={new Date(request.createdAt).toLocaleString()}>
              {timeAgo(request.createdAt, now)}
            </time>
            {request.appName && (
              <>
                {' · '}
                <ChildText text={request.appName} />
              </>
            )}
          </p>
        </div>
        {request.status !== 'pending' && <RequestStatusBadge status={request.status} />}
      </div>
      <p className="mt-3 font-mono text-sm break-all text-slate-800">
        <ChildText text={unlockRequestTarget(request)} />
      </p>
      {request.requestComment && (
        <blockquote className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 italic">
          <ChildText text={`“${request.requestComment}”`} />
        </blockquote>
      )}
      <div className="mt-auto flex flex-wrap justify-end gap-2 pt-4">
        {request.status === 'pending' ? (
          <>
            <LinkButton to={`${base}/deny`} variant="dangerSecondary" size="sm">
              Deny
            </LinkButton>
            <LinkButton to={`${base}/select-keychain`} size="sm">
              Accept
            </LinkButton>
          </>
        ) : (
          <LinkButton to={base} variant="ghost" size="sm">
            Details
          </LinkButton>
        )}
      </div>
    </article>
  );
}
