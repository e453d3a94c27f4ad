import type { FamilyParent, ParentRole } from '@keyward/contract/shared';
import { isAcceptableEmail } from '@keyward/domain/email';

// Settings → Parents (issue 12): the owner invites, resends, revokes and removes; a co-parent sees
// the list read-only. Screen logic as a reducer of named events; the component only renders it.

export type ParentAction = 'resend' | 'revoke' | 'remove';

/** What the viewer may do with one row: only the owner acts, never on themselves. */
export function parentActions(parent: FamilyParent, viewerRole: ParentRole): ParentAction[] {
  if (viewerRole !== 'owner' || parent.role === 'owner') return [];
  return parent.status === 'invited' ? ['resend', 'revoke'] : ['remove'];
}

export const ROLE_WORDS: Record<ParentRole, string> = { owner: 'Owner', coParent: 'Co-parent' };

export type ParentsSectionState = {
  email: string;
  emailError?: string;
  isInviting: boolean;
  /** the row whose removal (or revocation) waits for confirmation */
  confirming?: { id: string; email: string; action: 'revoke' | 'remove' };
  notice?: string;
  error?: string;
};

export type ParentsSectionEvent =
  | { type: 'emailChanged'; email: string }
  | { type: 'inviteSubmitted' }
  | { type: 'inviteSucceeded'; email: string }
  | { type: 'resendSucceeded'; email: string }
  | { type: 'requestFailed'; message: string }
  | { type: 'removeRequested'; id: string; email: string; action: 'revoke' | 'remove' }
  | { type: 'removeCancelled' }
  | { type: 'removeSucceeded' };

export const initialParentsSectionState: ParentsSectionState = { email: '', isInviting: false };

export const INVALID_INVITE_EMAIL = 'Please enter a valid email address.';

export function parentsSectionReducer(
  state: ParentsSectionState,
  event: ParentsSectionEvent,
): ParentsSectionState {
  switch (event.type) {
    case 'emailChanged':
      return { ...state, email: event.email, emailError: undefined };
    case 'inviteSubmitted': {
      if (!isAcceptableEmail(state.email.trim())) {
        return { ...state, emailError: INVALID_INVITE_EMAIL };
      }
      return { ...state, isInviting: true, notice: undefined, error: undefined };
    }
    case 'inviteSucceeded':
      return {
        ...initialParentsSectionState,
        notice: `Invitation sent to ${event.email}. The link works for 7 days.`,
      };
    case 'resendSucceeded':
      return { ...state, notice: `Invitation sent again to ${event.email}.`, error: undefined };
    case 'requestFailed':
      return { ...state, isInviting: false, error: event.message, notice: undefined };
    case 'removeRequested':
      return {
        ...state,
        confirming: { id: event.id, email: event.email, action: event.action },
        notice: undefined,
        error: undefined,
      };
    case 'removeCancelled':
      return { ...state, confirming: undefined };
    case 'removeSucceeded':
      return {
        ...state,
        notice: state.confirming
          ? state.confirming.action === 'revoke'
            ? `The invitation to ${state.confirming.email} was revoked.`
            : `${state.confirming.email} was removed and signed out.`
          : undefined,
        confirming: undefined,
      };
  }
}
