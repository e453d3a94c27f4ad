import type { DashboardInput } from '@keyward/contract/dashboard';

// Accepting saves the key as new and then marks the request accepted; denying marks it rejected
// with an optional comment the child sees (spec §4). A failure shows 'Error accepting unlock
// request' / 'Error denying unlock request' with Try again; a retried accept never saves the key a
// second time once it was saved. A request decided first by someone else (another parent, another
// tab) stays as it was decided (issue 19): the page says so and shows it, with nothing to retry.

/** The server's dashboardTag of "this request was already decided" (requests/decisions.ts). */
export const ALREADY_DECIDED_TAG = 'requestAlreadyDecided';

export type SaveKeyInput = DashboardInput<'SaveKey'>;
export type UpdateUnlockRequestInput = DashboardInput<'UpdateUnlockRequest'>;

export type DecisionPhase =
  | 'idle'
  | 'accepting'
  | 'denying'
  | 'acceptFailed'
  | 'denyFailed'
  | 'accepted'
  | 'denied'
  | 'alreadyDecided';

export type UnlockRequestDecisionState = {
  phase: DecisionPhase;
  denyComment: string;
  /** The key being saved for an accept, kept for Try again. */
  key?: SaveKeyInput;
  isKeySaved: boolean;
  /** Set by Try again: the retry runs without the form that started it. */
  isRetry: boolean;
  error?: string;
};

export type UnlockRequestDecisionEvent =
  | { type: 'denyCommentChanged'; comment: string }
  | { type: 'acceptSubmitted'; key: SaveKeyInput }
  | { type: 'keySaved' }
  | { type: 'acceptSucceeded' }
  | { type: 'acceptFailed'; message: string }
  | { type: 'denySubmitted' }
  | { type: 'denySucceeded' }
  | { type: 'denyFailed'; message: string }
  /** the server kept an earlier decision (the error tagged ALREADY_DECIDED_TAG) */
  | { type: 'decidedBefore'; message: string }
  | { type: 'tryAgainClicked' };

export const initialDecisionState: UnlockRequestDecisionState = {
  phase: 'idle',
  denyComment: '',
  isKeySaved: false,
  isRetry: false,
};

export function isDeciding(state: UnlockRequestDecisionState): boolean {
  return state.phase === 'accepting' || state.phase === 'denying';
}

/** The calls an accept still has to make, in order. */
export function remainingAcceptCalls(
  state: UnlockRequestDecisionState,
): Array<'saveKey' | 'acceptRequest'> {
  return state.isKeySaved ? ['acceptRequest'] : ['saveKey', 'acceptRequest'];
}

/** Issue 32: the accept names the keychain the key went into, so the server gives it to a child who
 * does not have it yet (an accepted request always unlocks something). */
export function acceptInput(requestId: string, key: SaveKeyInput): UpdateUnlockRequestInput {
  return { id: requestId, status: 'accepted', keychainId: key.keychainId };
}

export function denyInput(
  requestId: string,
  state: UnlockRequestDecisionState,
): UpdateUnlockRequestInput {
  const comment = state.denyComment.trim();
  return comment === ''
    ? { id: requestId, status: 'rejected' }
    : { id: requestId, status: 'rejected', responseComment: comment };
}

export function unlockRequestDecisionReducer(
  state: UnlockRequestDecisionState,
  event: UnlockRequestDecisionEvent,
): UnlockRequestDecisionState {
  switch (event.type) {
    case 'denyCommentChanged':
      return { ...state, denyComment: event.comment };
    case 'acceptSubmitted':
      if (isDeciding(state)) return state;
      // A different key (the parent went back and changed it) must be saved again.
      return {
        ...state,
        phase: 'accepting',
        key: event.key,
        isKeySaved: state.isKeySaved && state.key?.id === event.key.id,
        isRetry: false,
        error: undefined,
      };
    case 'keySaved':
      return state.phase === 'accepting' ? { ...state, isKeySaved: true } : state;
    case 'acceptSucceeded':
      return state.phase === 'accepting' ? { ...state, phase: 'accepted' } : state;
    case 'acceptFailed':
      return state.phase === 'accepting'
        ? { ...state, phase: 'acceptFailed', error: event.message }
        : state;
    case 'denySubmitted':
      if (isDeciding(state)) return state;
      return { ...state, phase: 'denying', isRetry: false, error: undefined };
    case 'denySucceeded':
      return state.phase === 'denying' ? { ...state, phase: 'denied' } : state;
    case 'denyFailed':
      return state.phase === 'denying'
        ? { ...state, phase: 'denyFailed', error: event.message }
        : state;
    case 'decidedBefore':
      return isDeciding(state)
        ? { ...state, phase: 'alreadyDecided', error: event.message }
        : state;
    case 'tryAgainClicked':
      if (state.phase === 'acceptFailed') {
        return { ...state, phase: 'accepting', isRetry: true, error: undefined };
      }
      if (state.phase === 'denyFailed') {
        return { ...state, phase: 'denying', isRetry: true, error: undefined };
      }
      return state;
  }
}
