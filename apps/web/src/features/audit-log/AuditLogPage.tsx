import { operationWords } from '@keyward/domain/audit-wording';
import { useId, useReducer } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ChildText } from '../../components/ui/ChildText';
import { EmptyState } from '../../components/ui/EmptyState';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { useDashboardQuery } from '../../lib/api/hooks';
import {
  auditLogInput,
  auditLogPageReducer,
  canGoNewer,
  initialAuditLogPageState,
} from './audit-log-page';

const selectClasses =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /settings/audit-log (issue 12): every change made by the family's parents, newest first. */
export default function AuditLogPage() {
  const [state, dispatch] = useReducer(auditLogPageReducer, initialAuditLogPageState);
  const log = useDashboardQuery('GetAuditLog', auditLogInput(state));
  const parents = useDashboardQuery('GetParents', undefined);
  const children = useDashboardQuery('GetUsers', undefined);
  const personId = useId();
  const childId = useId();

  return (
    <>
      <PageHeading
        title="Audit log"
        description={
          <>
            Every change made by a parent of this family, kept for one year.{' '}
            <Link to="/settings" className="font-semibold text-violet-700 hover:underline">
              Back to settings
            </Link>
          </>
        }
      />
      <Card>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={personId} className="text-sm font-medium text-slate-700">
              Person
            </label>
            <select
              id={personId}
              className={selectClasses}
              value={state.personId ?? ''}
              onChange={(event) => dispatch({ type: 'personChosen', personId: event.target.value })}
            >
              <option value="">Everyone</option>
              {parents.data?.map((parent) => (
                <option key={parent.id} value={parent.id}>
                  {parent.email}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={childId} className="text-sm font-medium text-slate-700">
              Child
            </label>
            <select
              id={childId}
              className={selectClasses}
              value={state.childId ?? ''}
              onChange={(event) => dispatch({ type: 'childChosen', childId: event.target.value })}
            >
              <option value="">All children</option>
              {children.data?.map((child) => (
                <option key={child.id} value={child.id}>
                  {child.name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </Card>
      <Card className="mt-6">
        {log.isPending && <Spinner className="h-8 w-8" label="Loading the audit log..." />}
        {log.isError && (
          <LoadFailure error={log.error} backTo="/settings" backLabel="Back to settings" />
        )}
        {log.isSuccess && log.data.entries.length === 0 && (
          <EmptyState title="No changes yet" description="Changes made by parents show up here." />
        )}
        {log.isSuccess && log.data.entries.length > 0 && (
          <ol className="divide-y divide-slate-100" aria-label="Audit log entries">
            {log.data.entries.map((entry) => (
              <li key={entry.id} className="py-3">
                <p className="text-sm text-slate-900">
                  {/* quotes what children's devices sent (addresses, comments): issue 19 */}
                  <ChildText text={entry.summary} />
                </p>
                <p className="mt-1 text-xs text-slate-500">
                  <time dateTime={entry.at}>{dateFormat.format(new Date(entry.at))}</time> ·{' '}
                  {operationWords(entry.operation)}
                </p>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-4 flex justify-between">
          <Button
            variant="secondary"
            size="sm"
            disabled={!canGoNewer(state)}
            onClick={() => dispatch({ type: 'newerClicked' })}
          >
            Newer
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!log.data?.nextBefore}
            onClick={() =>
              log.data?.nextBefore &&
              dispatch({ type: 'olderClicked', nextBefore: log.data.nextBefore })
            }
          >
            Older
          </Button>
        </div>
      </Card>
    </>
  );
}
