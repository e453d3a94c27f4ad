import type { UserKeychainSummary } from '@keyward/contract/shared';
import { describeSchedule } from '@keyward/domain/schedule-wording';
import { pluralise } from '@keyward/domain/wording';
import { PlusIcon, TrashIcon } from '@heroicons/react/24/outline';
import { lazy, Suspense, useReducer } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ScheduleEditor } from '../../components/ui/ScheduleEditor';
import { addKeychainDrawerReducer, initialAddKeychainDrawerState } from './add-keychain-drawer';
import { useSelectableKeychains } from './api';
import {
  type AssignmentChange,
  changeAssignments,
  type KeychainAssignment,
} from './child-keychains';

export type { KeychainAssignment } from './child-keychains';

// Lazy: the drawer's key preview needs the public suffix list (tldts, ~100 KB gzipped), which the
// child page should not download until the drawer opens.
const AddKeychainDrawer = lazy(() =>
  import('./AddKeychainDrawer').then((module) => ({ default: module.AddKeychainDrawer })),
);

type KeychainInfo = { name: string; numKeys: number; isPublic: boolean };

type ChildKeychainsSectionProps = {
  childName: string;
  /** The child's keychains as edited (SaveUser `keychains`). */
  keychains: readonly KeychainAssignment[];
  /** The summaries the child was loaded with: names and key counts of its keychains. */
  loadedKeychains: readonly UserKeychainSummary[];
  onChange: (keychains: KeychainAssignment[]) => void;
};

/** The child page's Keychains section: a controlled list of assignments plus the add drawer. */
export function ChildKeychainsSection({
  childName,
  keychains,
  loadedKeychains,
  onChange,
}: ChildKeychainsSectionProps) {
  const [drawer, dispatchDrawer] = useReducer(
    addKeychainDrawerReducer,
    undefined,
    initialAddKeychainDrawerState,
  );
  // Names of keychains added since the child was loaded come from the selectable lists.
  const needsLookup = keychains.some((k) => !loadedKeychains.some((loaded) => loaded.id === k.id));
  const selectable = useSelectableKeychains({ enabled: needsLookup || drawer.isOpen });

  function infoOf(id: string): KeychainInfo {
    const known =
      loadedKeychains.find((k) => k.id === id) ??
      selectable.data?.own.find((k) => k.id === id) ??
      selectable.data?.public.find((k) => k.id === id);
    return known ?? { name: 'Keychain', numKeys: 0, isPublic: false };
  }
  const change = (update: AssignmentChange) => onChange(changeAssignments(keychains, update));

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Keychains</h2>
      <p className="mt-1 text-sm text-slate-500">
        What {childName} may reach: always, or only on a schedule.
      </p>
      <div className="mt-5">
        {keychains.length === 0 ? (
          <p className="text-sm text-slate-500">No keychains yet.</p>
        ) : (
          <ul className="space-y-3">
            {keychains.map((assignment) => {
              const info = infoOf(assignment.id);
              const { id, schedule } = assignment;
              // Added in the drawer since the child was loaded: nothing changes until Save child.
              const isPending = !loadedKeychains.some((loaded) => loaded.id === id);
              return (
                <li key={id} aria-label={info.name} className="rounded-xl ring-1 ring-slate-200">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-2 p-3">
                    <div className="min-w-0 flex-1 basis-48">
                      <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                        <span className="truncate">{info.name}</span>
                        {info.isPublic && <Badge tone="brand">Public</Badge>}
                        {isPending && <Badge tone="warning">Not saved yet</Badge>}
                      </p>
                      <p className="text-xs text-slate-500">
                        {pluralise(info.numKeys, 'key')} ·{' '}
                        {schedule ? describeSchedule(schedule) : 'Always active'}
                      </p>
                      {isPending && (
                        <p className="mt-1 text-xs text-amber-800">
                          {childName} gets this keychain once you save the child.
                        </p>
                      )}
                    </div>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() =>
                        change({ type: schedule ? 'scheduleRemoved' : 'scheduleAdded', id })
                      }
                    >
                      {schedule ? 'Remove schedule' : 'Add schedule'}
                    </Button>
                    <button
                      type="button"
                      onClick={() => change({ type: 'removed', id })}
                      aria-label={`Remove ${info.name}`}
                      title="Remove keychain"
                      className="rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-violet-500"
                    >
                      <TrashIcon className="h-5 w-5" aria-hidden="true" />
                    </button>
                  </div>
                  {schedule && (
                    <div className="px-3 pb-3">
                      <ScheduleEditor
                        schedule={schedule}
                        onModeChange={(mode) => change({ type: 'scheduleModeChanged', id, mode })}
                        onDayToggle={(day) => change({ type: 'scheduleDayToggled', id, day })}
                        onWindowChange={(window) =>
                          change({ type: 'scheduleWindowChanged', id, window })
                        }
                      />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <Button
          variant="secondary"
          size="sm"
          className="mt-4"
          onClick={() => dispatchDrawer({ type: 'opened' })}
        >
          <PlusIcon className="h-4 w-4" aria-hidden="true" />
          Add keychain
        </Button>
      </div>
      {drawer.isOpen && (
        <Suspense fallback={null}>
          <AddKeychainDrawer
            state={drawer}
            dispatch={dispatchDrawer}
            childName={childName}
            assignedIds={keychains.map((k) => k.id)}
            onAdd={(assignment) => change({ type: 'added', assignment })}
          />
        </Suspense>
      )}
    </Card>
  );
}
