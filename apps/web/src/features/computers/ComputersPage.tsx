import type { Device } from '@keyward/contract/shared';
import { ComputerDesktopIcon, PencilSquareIcon } from '@heroicons/react/24/outline';
import { LinkButton } from '../../components/ui/Button';
import { ComputerIcon } from '../../components/ui/ComputerIcon';
import { EmptyState } from '../../components/ui/EmptyState';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { errorMessage } from '../../lib/errors';
import { useComputers } from './api';
import { onlineUser } from './computer-form';

export default function ComputersPage() {
  const computers = useComputers();

  if (computers.isPending) return <Spinner className="h-8 w-8" label="Loading computers..." />;
  if (computers.isError) {
    if (computers.error.type === 'loggedOut') return null; // the hook is already redirecting
    return (
      <FullPageStatus status="failure" title="Error" message={errorMessage(computers.error)} />
    );
  }

  return (
    <>
      <PageHeading title="Computers" />
      {computers.data.length === 0 ? (
        <EmptyState
          icon={<ComputerDesktopIcon className="h-12 w-12" aria-hidden="true" />}
          title="No computers"
          description="Computers are created automatically when the Keyward Mac app is installed on your child's computer and connected with a connection code."
          action={
            <LinkButton to="/children" variant="secondary">
              Go to children
            </LinkButton>
          }
        />
      ) : (
        <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {computers.data.map((computer) => (
            <li key={computer.id}>
              <ComputerCard computer={computer} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function ComputerCard({ computer }: { computer: Device }) {
  const user = onlineUser(computer);
  const name = computer.name ?? computer.modelTitle;
  return (
    <article
      aria-labelledby={`computer-${computer.id}`}
      className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start gap-4">
        <ComputerIcon family={computer.modelFamily} className="h-12 w-12" />
        <div className="min-w-0 flex-1">
          <h2
            id={`computer-${computer.id}`}
            className="text-lg font-semibold break-words text-slate-900"
          >
            {name}
          </h2>
          {computer.name && (
            <p className="truncate text-sm text-slate-500">{computer.modelTitle}</p>
          )}
        </div>
      </div>
      <dl className="mt-5 flex-1 space-y-2 text-sm">
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">Online now</dt>
          <dd className="truncate font-medium text-slate-900">{user ? user.name : 'No one'}</dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">Status</dt>
          <dd>
            <StatusBadge status={user?.status ?? { case: 'offline' }} />
          </dd>
        </div>
      </dl>
      <div className="mt-5 border-t border-slate-100 pt-4">
        <LinkButton to={`/computers/${computer.id}`} variant="secondary" size="sm">
          <PencilSquareIcon className="h-4 w-4" aria-hidden="true" />
          Edit
        </LinkButton>
      </div>
    </article>
  );
}
