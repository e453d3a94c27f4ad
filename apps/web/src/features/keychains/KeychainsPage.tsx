import type { AdminKeychain, RuleSchedule } from '@keyward/contract/shared';
import { describeSchedule } from '@keyward/domain/schedule-wording';
import { pluralise } from '@keyward/domain/wording';
import {
  ChevronDownIcon,
  ClockIcon,
  ExclamationTriangleIcon,
  KeyIcon,
  PencilSquareIcon,
  PlusIcon,
  TrashIcon,
} from '@heroicons/react/24/outline';
import { useEffect, useId, useReducer, useRef, useState } from 'react';
import { Button, LinkButton } from '../../components/ui/Button';
import { ConfirmationModal } from '../../components/ui/ConfirmationModal';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { EmptyState } from '../../components/ui/EmptyState';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { useChildren } from '../../lib/children';
import { useAdminKeychains, useDeleteKeychain, useToggleChildKeychain } from './api';
import {
  type AssignmentInfo,
  type AssignmentSchedules,
  assignMenuReducer,
  assignmentInfo,
  assignmentSchedulesOf,
  initialAssignMenuState,
  needsConfirmation,
} from './assign-menu';
import { SomethingWentWrong } from './SomethingWentWrong';

type Child = { id: string; name: string };

export default function KeychainsPage() {
  const keychains = useAdminKeychains();
  // Which assignments have a schedule: only the children's details say so.
  const users = useChildren();
  const schedules = assignmentSchedulesOf(users.data);
  const deleteKeychain = useDeleteKeychain();
  const [toDelete, setToDelete] = useState<AdminKeychain | null>(null);

  if (keychains.isPending) return <Spinner className="h-8 w-8" label="Loading keychains..." />;
  if (keychains.isError) {
    if (keychains.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <SomethingWentWrong />;
  }

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deleteKeychain.mutateAsync({ type: 'keychain', id: toDelete.summary.id });
    } catch {
      // the error toast has told the parent
    }
    setToDelete(null);
  }

  const { children } = keychains.data;
  const createKeychain = (
    <LinkButton to="/keychains/new" className="whitespace-nowrap">
      <PlusIcon className="h-5 w-5" aria-hidden="true" />
      Create keychain
    </LinkButton>
  );
  return (
    <>
      <PageHeading
        title="Keychains"
        description="A keychain is a named set of keys. Each key unlocks a website or an app that the filter would otherwise block. Give a keychain to a child, always or on a schedule, and their computers let through everything its keys unlock."
        actions={keychains.data.keychains.length > 0 ? createKeychain : undefined}
      />
      {keychains.data.keychains.length === 0 ? (
        <EmptyState
          icon={<KeyIcon className="h-12 w-12" aria-hidden="true" />}
          title="No keychains"
          description="Create a keychain, add keys to it, then give it to a child."
          action={createKeychain}
        />
      ) : (
        <ul className="grid gap-6 lg:grid-cols-2">
          {keychains.data.keychains.map((keychain) => (
            <li key={keychain.summary.id}>
              <KeychainCard
                keychain={keychain}
                allChildren={children}
                schedules={schedules}
                onDelete={() => setToDelete(keychain)}
              />
            </li>
          ))}
        </ul>
      )}
      <DeleteModal
        type="keychain"
        isOpen={toDelete !== null}
        isDeleting={deleteKeychain.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </>
  );
}

function KeychainCard({
  keychain,
  allChildren,
  schedules,
  onDelete,
}: {
  keychain: AdminKeychain;
  allChildren: Child[];
  schedules: AssignmentSchedules;
  onDelete: () => void;
}) {
  const { summary } = keychain;
  const titleId = useId();
  const assigned = allChildren.filter((child) => keychain.children.includes(child.id));
  const isUnused = assigned.length === 0;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 id={titleId} className="truncate text-lg font-semibold text-slate-900">
            {summary.name}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">{pluralise(summary.numKeys, 'key')}</p>
        </div>
        <AssignMenu keychain={keychain} allChildren={allChildren} schedules={schedules} />
      </div>
      {summary.description && (
        <p className="mt-3 line-clamp-3 text-sm text-slate-600">{summary.description}</p>
      )}
      <div className="mt-4 flex flex-1 flex-wrap items-start gap-2">
        {isUnused ? (
          <span className="inline-flex items-center rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-600">
            Not being used
          </span>
        ) : (
          assigned.map((child) => {
            const info = assignmentInfo(schedules, keychain.children, child.id, summary.id);
            return (
              <span
                key={child.id}
                className="inline-flex items-center gap-1 rounded-full bg-violet-50 px-2.5 py-1 text-xs font-medium text-violet-800"
              >
                {child.name}
                {info.type === 'scheduled' && (
                  <>
                    <ClockIcon className="ml-0.5 h-3.5 w-3.5" aria-hidden="true" />
                    <span>
                      <span className="sr-only">, on a schedule: </span>
                      {describeSchedule(info.schedule)}
                    </span>
                  </>
                )}
              </span>
            );
          })
        )}
      </div>
      {isUnused && (
        <p className="mt-3 flex items-center gap-1.5 text-sm text-amber-700">
          <ExclamationTriangleIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
          This keychain isn't doing anything
        </p>
      )}
      <div className="mt-5 flex gap-3 border-t border-slate-100 pt-4">
        <LinkButton to={`/keychains/${summary.id}`} variant="secondary" size="sm">
          <PencilSquareIcon className="h-4 w-4" aria-hidden="true" />
          Edit
        </LinkButton>
        <Button variant="dangerGhost" size="sm" onClick={onDelete}>
          <TrashIcon className="h-4 w-4" aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}

/** What a menu item says under the child's name. */
function assignmentLine(info: AssignmentInfo): string {
  switch (info.type) {
    case 'notAssigned':
      return 'Off · turning on gives it always';
    case 'always':
      return 'Always active';
    case 'scheduled':
      return describeSchedule(info.schedule);
    case 'unknown':
      return 'On';
  }
}

/**
 * Assign or unassign each own child; stays open so several children can be toggled. Removing a
 * scheduled assignment asks first: the schedule is lost, and turning the child on again here
 * gives the keychain always (see ToggleChildKeychain on the server).
 */
function AssignMenu({
  keychain,
  allChildren,
  schedules,
}: {
  keychain: AdminKeychain;
  allChildren: Child[];
  schedules: AssignmentSchedules;
}) {
  const [state, dispatch] = useReducer(assignMenuReducer, initialAssignMenuState);
  const { isOpen, pendingRemoval } = state;
  const setIsOpen = (open: boolean) => {
    if (open !== isOpen) dispatch({ type: 'menuToggled' });
  };
  const toggle = useToggleChildKeychain();
  const toggleChild = (childId: string) =>
    toggle.mutate({ keychainId: keychain.summary.id, childId });
  const container = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!isOpen) return;
    function onPointerDown(event: MouseEvent) {
      if (!container.current?.contains(event.target as Node)) dispatch({ type: 'menuClosed' });
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') dispatch({ type: 'menuClosed' });
    }
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [isOpen]);

  if (allChildren.length === 0) return null;
  return (
    <div ref={container} className="relative shrink-0">
      <Button
        variant="secondary"
        size="sm"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={`Assign ${keychain.summary.name} to children`}
        onClick={() => setIsOpen(!isOpen)}
      >
        Children
        <ChevronDownIcon className="h-4 w-4" aria-hidden="true" />
      </Button>
      {isOpen && (
        <div
          id={menuId}
          role="menu"
          aria-label={`Children with ${keychain.summary.name}`}
          className="absolute right-0 z-20 mt-2 w-56 rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-200"
        >
          {allChildren.map((child) => {
            const isAssigned = keychain.children.includes(child.id);
            const info = assignmentInfo(
              schedules,
              keychain.children,
              child.id,
              keychain.summary.id,
            );
            const lineId = `${menuId}-${child.id}`;
            return (
              <button
                key={child.id}
                type="button"
                role="menuitemcheckbox"
                aria-checked={isAssigned}
                aria-label={child.name}
                aria-describedby={lineId}
                disabled={toggle.isPending}
                onClick={() => {
                  if (needsConfirmation(info)) {
                    dispatch({
                      type: 'removalRequested',
                      childId: child.id,
                      childName: child.name,
                      info,
                    });
                  } else {
                    toggleChild(child.id);
                  }
                }}
                className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-50 disabled:opacity-60"
              >
                <input
                  type="checkbox"
                  readOnly
                  tabIndex={-1}
                  aria-hidden="true"
                  checked={isAssigned}
                  className="pointer-events-none h-4 w-4 accent-violet-600"
                />
                <span className="min-w-0">
                  <span className="block truncate">{child.name}</span>
                  <span id={lineId} className="block text-xs text-slate-600">
                    {assignmentLine(info)}
                  </span>
                </span>
              </button>
            );
          })}
        </div>
      )}
      <ConfirmationModal
        isOpen={pendingRemoval !== undefined}
        title={`Remove ${keychain.summary.name} from ${pendingRemoval?.childName ?? ''}?`}
        confirmLabel="Remove"
        confirmVariant="danger"
        onConfirm={() => {
          if (pendingRemoval) toggleChild(pendingRemoval.childId);
          dispatch({ type: 'removalConfirmed' });
        }}
        onCancel={() => dispatch({ type: 'removalCancelled' })}
      >
        {pendingRemoval && <RemovalWarning keychain={keychain.summary.name} {...pendingRemoval} />}
      </ConfirmationModal>
    </div>
  );
}

function RemovalWarning({
  keychain,
  childName,
  schedule,
}: {
  keychain: string;
  childName: string;
  schedule?: RuleSchedule;
}) {
  return (
    <>
      <p>
        {schedule
          ? `${childName} has ${keychain} on a schedule (${describeSchedule(schedule)}). Removing it deletes the schedule.`
          : `If ${childName} has ${keychain} on a schedule, removing it deletes the schedule.`}
      </p>
      <p className="mt-2">
        Turning {childName} on again here gives the keychain always. To keep a schedule, edit it on{' '}
        {childName}'s page instead.
      </p>
    </>
  );
}
