import type { ParentRole } from '@keyward/contract/shared';
import { type FormEvent, useReducer } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ConfirmationModal } from '../../components/ui/ConfirmationModal';
import { Spinner } from '../../components/ui/Spinner';
import { TextInput } from '../../components/ui/TextInput';
import { errorMessage } from '../../lib/errors';
import { useInviteParent, useParents, useRemoveParent } from './api';
import {
  initialParentsSectionState,
  parentActions,
  parentsSectionReducer,
  ROLE_WORDS,
} from './parents-section';

/** Settings → Parents (issue 12): who can manage this family; the owner invites and removes. */
export function ParentsSection({ viewerRole }: { viewerRole: ParentRole }) {
  const parents = useParents();
  const invite = useInviteParent();
  const remove = useRemoveParent();
  const [state, dispatch] = useReducer(parentsSectionReducer, initialParentsSectionState);
  const isOwner = viewerRole === 'owner';

  function onInvite(event: FormEvent) {
    event.preventDefault();
    const next = parentsSectionReducer(state, { type: 'inviteSubmitted' });
    dispatch({ type: 'inviteSubmitted' });
    if (!next.isInviting) return;
    const email = state.email.trim();
    invite.mutate(
      { email },
      {
        onSuccess: () => dispatch({ type: 'inviteSucceeded', email }),
        onError: (error) => dispatch({ type: 'requestFailed', message: errorMessage(error) }),
      },
    );
  }

  function onResend(email: string) {
    invite.mutate(
      { email },
      {
        onSuccess: () => dispatch({ type: 'resendSucceeded', email }),
        onError: (error) => dispatch({ type: 'requestFailed', message: errorMessage(error) }),
      },
    );
  }

  function onConfirmRemove() {
    if (!state.confirming) return;
    remove.mutate(
      { id: state.confirming.id },
      {
        onSuccess: () => dispatch({ type: 'removeSucceeded' }),
        onError: (error) => {
          dispatch({ type: 'removeCancelled' });
          dispatch({ type: 'requestFailed', message: errorMessage(error) });
        },
      },
    );
  }

  return (
    <Card className="mt-6">
      <h2 className="text-lg font-semibold text-slate-900">Parents</h2>
      <p className="mt-1 text-sm text-slate-600">
        {isOwner
          ? 'Invite another adult to see and manage your family: children, computers, keychains and requests.'
          : 'Only the account owner can invite or remove parents.'}
      </p>
      {parents.isPending && <Spinner className="mt-4 h-6 w-6" label="Loading parents..." />}
      {parents.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {errorMessage(parents.error)}
        </p>
      )}
      {parents.isSuccess && (
        <ul className="mt-4 divide-y divide-slate-100" aria-label="Parents">
          {parents.data.map((parent) => (
            <li
              key={parent.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm break-all text-slate-900">{parent.email}</span>
                <Badge tone="neutral">{ROLE_WORDS[parent.role]}</Badge>
                {parent.status === 'invited' && <Badge tone="warning">invited</Badge>}
              </div>
              <div className="flex gap-2">
                {parentActions(parent, viewerRole).map((action) =>
                  action === 'resend' ? (
                    <Button
                      key={action}
                      size="sm"
                      variant="secondary"
                      disabled={invite.isPending}
                      onClick={() => onResend(parent.email)}
                    >
                      Resend
                    </Button>
                  ) : (
                    <Button
                      key={action}
                      size="sm"
                      variant="dangerSecondary"
                      onClick={() =>
                        dispatch({
                          type: 'removeRequested',
                          id: parent.id,
                          email: parent.email,
                          action,
                        })
                      }
                    >
                      {action === 'revoke' ? 'Revoke' : 'Remove'}
                    </Button>
                  ),
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {isOwner && (
        <form
          onSubmit={onInvite}
          noValidate
          className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
        >
          <div className="flex-1">
            <TextInput
              label="Invite a parent by email"
              type="email"
              value={state.email}
              onChange={(email) => dispatch({ type: 'emailChanged', email })}
              error={state.emailError}
            />
          </div>
          <Button type="submit" isLoading={state.isInviting}>
            Send invitation
          </Button>
        </form>
      )}
      <div aria-live="polite">
        {state.notice && <p className="mt-3 text-sm text-green-700">{state.notice}</p>}
      </div>
      {state.error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {state.error}
        </p>
      )}
      <ConfirmationModal
        isOpen={state.confirming !== undefined}
        title={state.confirming?.action === 'revoke' ? 'Revoke invitation?' : 'Remove parent?'}
        confirmLabel={state.confirming?.action === 'revoke' ? 'Revoke' : 'Remove'}
        confirmVariant="danger"
        isConfirming={remove.isPending}
        onConfirm={onConfirmRemove}
        onCancel={() => dispatch({ type: 'removeCancelled' })}
      >
        {state.confirming?.action === 'revoke'
          ? `The invitation link sent to ${state.confirming.email} will stop working.`
          : `${state.confirming?.email ?? ''} will be signed out at once and can no longer see your family.`}
      </ConfirmationModal>
    </Card>
  );
}
