import type { User } from '@keyward/contract/shared';
import { ComputerDesktopIcon } from '@heroicons/react/24/outline';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useReducer, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ConfirmationModal } from '../../components/ui/ConfirmationModal';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { UnsavedChangesBar } from '../../components/ui/UnsavedChangesBar';
import { dashboardQueryKey } from '../../lib/api/hooks';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useNavigationGuard } from '../../lib/navigation-guard';
import { ChildKeychainsSection } from '../keychains/ChildKeychainsSection';
import { ScreenTimeSection } from '../screen-time/ScreenTime';
import { useChild, useDeleteChild, useDeleteConnection, useSaveChild } from './api';
import {
  BlockedAppsSection,
  ComputersSection,
  DowntimeSection,
  MonitoringSection,
  AlertsSection,
  NameSection,
} from './ChildSections';
import {
  canSave,
  childEditorReducer,
  draftErrors,
  hasChanges,
  initialChildEditorState,
  toSaveChildInput,
} from './child-editor';
import { ChildOverview, useChildDevices } from './ChildOverview';
import { InstallOptions } from './InstallOptions';
import { ConnectionCodeDialog } from './ConnectionCodeDialog';

export default function ChildPage({ now }: { now?: Date }) {
  const { userId = '' } = useParams();
  const child = useChild(userId);
  const devices = useChildDevices(userId);
  const [isConnecting, setIsConnecting] = useState(false);
  const connectionDeletion = useDeleteConnectionFlow();

  if (child.isPending) return <Spinner className="h-8 w-8" label="Loading child..." />;
  if (child.isError) {
    if (child.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <LoadFailure error={child.error} backTo="/children" backLabel="Back to children" />;
  }

  return (
    <>
      {/* issue 20: a device of any kind (an iPad alone too) makes the child set up */}
      {child.data.devices.length === 0 && (devices?.length ?? 0) === 0 ? (
        <ChildWithoutComputers child={child.data} onAddComputer={() => setIsConnecting(true)} />
      ) : (
        <ChildEditor
          key={child.data.id}
          child={child.data}
          onAddComputer={() => setIsConnecting(true)}
          onDeleteConnection={connectionDeletion.ask}
          // issue 32: the devices are listed once, in the overview, with their delete buttons;
          // the settings list them only while the family's devices are not known
          listsComputers={devices === undefined}
          overview={
            <ChildOverview
              child={child.data}
              devices={devices ?? []}
              now={now ?? new Date()}
              onAddDevice={() => setIsConnecting(true)}
              onDeleteConnection={connectionDeletion.ask}
            />
          }
        />
      )}
      <ConnectionCodeDialog
        isOpen={isConnecting}
        childId={child.data.id}
        childName={child.data.name}
        onClose={() => setIsConnecting(false)}
      />
      {connectionDeletion.modal}
    </>
  );
}

/** "Delete connection?" for a child's connection to a Mac, browser or DNS device. */
function useDeleteConnectionFlow() {
  const deleteConnection = useDeleteConnection();
  const [connectionId, setConnectionId] = useState<string | null>(null);
  async function confirm() {
    if (!connectionId) return;
    try {
      await deleteConnection.mutateAsync({ type: 'computerUser', id: connectionId });
    } catch {
      // the error toast has told the parent
    }
    setConnectionId(null);
  }
  return {
    ask: setConnectionId,
    modal: (
      <DeleteModal
        isOpen={connectionId !== null}
        type="connection"
        isDeleting={deleteConnection.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setConnectionId(null)}
      />
    ),
  };
}

function useDeleteChildFlow(childId: string) {
  const [isConfirming, setIsConfirming] = useState(false);
  const deleteChild = useDeleteChild();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  async function confirm() {
    try {
      await deleteChild.mutateAsync({ type: 'child', id: childId });
    } catch {
      setIsConfirming(false);
      return; // the error toast has told the parent
    }
    navigate('/children', { replace: true });
    queryClient.removeQueries({ queryKey: dashboardQueryKey('GetUser', childId) });
  }
  return {
    open: () => setIsConfirming(true),
    modal: (
      <DeleteModal
        isOpen={isConfirming}
        type="child"
        isDeleting={deleteChild.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setIsConfirming(false)}
      />
    ),
  };
}

function ChildWithoutComputers({
  child,
  onAddComputer,
}: {
  child: User;
  onAddComputer: () => void;
}) {
  const deletion = useDeleteChildFlow(child.id);
  return (
    <>
      <PageHeading title={child.name} actions={<ChildRequestsLink childId={child.id} />} />
      <Card className="max-w-2xl text-center">
        <ComputerDesktopIcon className="mx-auto h-12 w-12 text-violet-600" aria-hidden="true" />
        <h2 className="mt-3 text-lg font-semibold text-slate-900">
          Connect {child.name}'s computer
        </h2>
        <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
          Install a filter on {child.name}'s device, then get a connection code and enter it there.
          What works on a Mac today (the code's dialog also covers iPhones, iPads and Chromebooks):
        </p>
        <div className="mx-auto mt-3 max-w-md">
          <InstallOptions target="mac" />
        </div>
        <Button className="mt-6" onClick={onAddComputer}>
          Get connection code
        </Button>
      </Card>
      <div className="mt-8 max-w-2xl">
        <Button variant="dangerSecondary" onClick={deletion.open}>
          Delete child
        </Button>
      </div>
      {deletion.modal}
    </>
  );
}

function ChildEditor({
  child,
  onAddComputer,
  onDeleteConnection,
  listsComputers,
  overview,
}: {
  child: User;
  onAddComputer: () => void;
  onDeleteConnection: (connectionId: string) => void;
  /** the settings' list of computers, when the overview does not show the devices */
  listsComputers: boolean;
  /** how the child is doing, before the settings (issue 20) */
  overview?: ReactNode;
}) {
  const [state, dispatch] = useReducer(childEditorReducer, child, (loaded) =>
    childEditorReducer(initialChildEditorState(loaded.id), { type: 'loaded', child: loaded }),
  );
  // Fresh data (a refetch, another tab) replaces the form only while it has no unsaved edits.
  useEffect(() => dispatch({ type: 'loaded', child }), [child]);

  const saveChild = useSaveChild();
  const deletion = useDeleteChildFlow(child.id);
  const errors = draftErrors(state.draft);
  const isChanged = hasChanges(state);
  // Leaving by a link, Back or closing the tab asks first while edits are unsaved.
  const guard = useNavigationGuard(isChanged);

  async function save() {
    if (!canSave(state)) return;
    dispatch({ type: 'saveStarted' });
    try {
      await saveChild.mutateAsync(toSaveChildInput(state));
      dispatch({ type: 'saveSucceeded' });
    } catch (error) {
      dispatch({ type: 'saveFailed', message: errorMessage(toPqlError(error)) });
    }
  }

  return (
    <>
      <PageHeading title={child.name} actions={<ChildRequestsLink childId={child.id} />} />
      {/* the bar's sticky container is the whole page, so it stays in sight over the overview too */}
      <div className="space-y-6">
        {overview && <div className="mb-10 max-w-5xl">{overview}</div>}
        <div className="max-w-3xl space-y-6">
          {overview && (
            <h2 className="border-t border-slate-200 pt-6 text-xl font-bold text-slate-900">
              Settings
            </h2>
          )}
          <NameSection state={state} errors={errors} dispatch={dispatch} />
          {listsComputers && (
            <ComputersSection
              devices={child.devices}
              onAddComputer={onAddComputer}
              onDeleteConnection={(device) => onDeleteConnection(device.id)}
            />
          )}
          <MonitoringSection state={state} errors={errors} dispatch={dispatch} />
          <AlertsSection state={state} errors={errors} dispatch={dispatch} />
          <DowntimeSection state={state} dispatch={dispatch} />
          {/* issue 34: saved on its own, not with "Save child" */}
          {child.screenTime && (
            <ScreenTimeSection
              childId={child.id}
              childName={child.name}
              settings={child.screenTime}
              keychains={child.keychains}
            />
          )}
          <BlockedAppsSection state={state} errors={errors} dispatch={dispatch} />
          <ChildKeychainsSection
            childName={child.name}
            keychains={state.draft.keychains}
            loadedKeychains={child.keychains}
            onChange={(keychains) => dispatch({ type: 'keychainsChanged', keychains })}
          />
        </div>

        <UnsavedChangesBar
          className="max-w-3xl"
          isChanged={isChanged}
          saveLabel="Save child"
          canSave={canSave(state)}
          isSaving={state.isSaving}
          saveError={state.saveError}
          onSave={() => void save()}
          onCancel={() => dispatch({ type: 'editsDiscarded' })}
          start={
            <Button variant="dangerSecondary" onClick={deletion.open}>
              Delete child
            </Button>
          }
        />
      </div>
      <ConfirmationModal
        isOpen={guard.isAsking}
        title="Leave without saving?"
        confirmLabel="Leave without saving"
        cancelLabel="Keep editing"
        confirmVariant="danger"
        onConfirm={guard.leave}
        onCancel={guard.stay}
      >
        Your changes to {child.name} are not saved yet. If you leave now, they are lost.
      </ConfirmationModal>
      {deletion.modal}
    </>
  );
}

function ChildRequestsLink({ childId }: { childId: string }) {
  return (
    <LinkButton to={`/children/${childId}/unlock-requests`} variant="secondary" size="sm">
      Unlock requests
    </LinkButton>
  );
}
