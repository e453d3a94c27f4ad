import type { NotificationMethodConfig } from '@keyward/contract/shared';
import { checkNotificationMethodConfig } from '@keyward/domain/notifications';

// The 'New notification method' slide-in (spec §4 'Notification method creation'): choose a type,
// fill its fields, send a verification code through the method ('Sending...'), type the 6-digit
// code and verify it ('Verifying...'). Resend and Cancel are available; a confirmed method leads to
// 'One more step!'.

export type MethodType = NotificationMethodConfig['case'];

export type MethodFormPhase = 'editing' | 'sending' | 'codeSent' | 'verifying' | 'verified';

export type NotificationMethodFormState = {
  isOpen: boolean;
  methodType: MethodType;
  email: string;
  phoneNumber: string;
  slackChannelName: string;
  slackChannelId: string;
  slackToken: string;
  phase: MethodFormPhase;
  /** The pending method the code was sent for (CreatePendingNotificationMethod's methodId). */
  pendingMethodId?: string;
  code: string;
  error?: string;
};

export type NotificationMethodFormEvent =
  | { type: 'createClicked' }
  | { type: 'methodTypeUpdated'; methodType: MethodType }
  | { type: 'emailAddressUpdated'; email: string }
  | { type: 'textPhoneNumberUpdated'; phoneNumber: string }
  | { type: 'slackChannelNameUpdated'; channelName: string }
  | { type: 'slackChannelIdUpdated'; channelId: string }
  | { type: 'slackTokenUpdated'; token: string }
  | { type: 'sendCodeClicked' }
  | { type: 'codeSent'; methodId: string }
  | { type: 'sendCodeFailed'; message: string }
  | { type: 'codeUpdated'; code: string }
  | { type: 'verifyCodeClicked' }
  | { type: 'codeVerified' }
  /** `mayRetry`: the code is still pending (tries remain), so the same code can be typed again. */
  | { type: 'verifyCodeFailed'; message: string; mayRetry?: boolean }
  | { type: 'cancelClicked' };

export const VERIFICATION_CODE_LENGTH = 6;

/** The server's tag on a wrong code that may be typed again (ConfirmPendingNotificationMethod). */
export const CODE_MAY_BE_RETRIED_TAG = 'incorrectCodeTryAgain';

export const closedMethodForm: NotificationMethodFormState = {
  isOpen: false,
  methodType: 'email',
  email: '',
  phoneNumber: '',
  slackChannelName: '',
  slackChannelId: '',
  slackToken: '',
  phase: 'editing',
  code: '',
};

/** The config typed so far, exactly as the parent entered it. */
export function enteredConfig(state: NotificationMethodFormState): NotificationMethodConfig {
  switch (state.methodType) {
    case 'email':
      return { case: 'email', email: state.email };
    case 'text':
      return { case: 'text', phoneNumber: state.phoneNumber };
    case 'slack':
      return {
        case: 'slack',
        channelName: state.slackChannelName,
        channelId: state.slackChannelId,
        token: state.slackToken,
      };
  }
}

/** The CreatePendingNotificationMethod body (phone normalised to E.164), or why it is not ready. */
export function methodConfigToSend(
  state: NotificationMethodFormState,
): { ok: true; config: NotificationMethodConfig } | { ok: false; message: string } {
  return checkNotificationMethodConfig(enteredConfig(state));
}

/** Send code: disabled until the input is valid, and while sending. */
export function canSendCode(state: NotificationMethodFormState): boolean {
  return state.phase === 'editing' && methodConfigToSend(state).ok;
}

export function canResendCode(state: NotificationMethodFormState): boolean {
  return state.phase === 'codeSent';
}

export function isCodeComplete(code: string): boolean {
  return new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(code);
}

export function canVerifyCode(state: NotificationMethodFormState): boolean {
  return (
    state.phase === 'codeSent' && state.pendingMethodId !== undefined && isCodeComplete(state.code)
  );
}

/** The ConfirmPendingNotificationMethod body: the code travels as a number. */
export function confirmInput(state: NotificationMethodFormState): { id: string; code: number } {
  return { id: state.pendingMethodId ?? '', code: Number(state.code) };
}

function edit(
  state: NotificationMethodFormState,
  changes: Partial<NotificationMethodFormState>,
): NotificationMethodFormState {
  // Changing the address after a code was sent starts over: the code belongs to the old address.
  if (state.phase !== 'editing' && state.phase !== 'codeSent') return state;
  return {
    ...state,
    ...changes,
    phase: 'editing',
    pendingMethodId: undefined,
    code: '',
    error: undefined,
  };
}

export function notificationMethodFormReducer(
  state: NotificationMethodFormState,
  event: NotificationMethodFormEvent,
): NotificationMethodFormState {
  switch (event.type) {
    case 'createClicked':
      return { ...closedMethodForm, isOpen: true };
    case 'methodTypeUpdated':
      return edit(state, { methodType: event.methodType });
    case 'emailAddressUpdated':
      return edit(state, { email: event.email });
    case 'textPhoneNumberUpdated':
      return edit(state, { phoneNumber: event.phoneNumber });
    case 'slackChannelNameUpdated':
      return edit(state, { slackChannelName: event.channelName });
    case 'slackChannelIdUpdated':
      return edit(state, { slackChannelId: event.channelId });
    case 'slackTokenUpdated':
      return edit(state, { slackToken: event.token });
    case 'sendCodeClicked':
      // Also Resend: a new pending method with a fresh code.
      if (!(canSendCode(state) || canResendCode(state))) return state;
      return { ...state, phase: 'sending', code: '', error: undefined };
    case 'codeSent':
      if (state.phase !== 'sending') return state;
      return { ...state, phase: 'codeSent', pendingMethodId: event.methodId };
    case 'sendCodeFailed':
      if (state.phase !== 'sending') return state;
      return { ...state, phase: 'editing', pendingMethodId: undefined, error: event.message };
    case 'codeUpdated': {
      if (state.phase !== 'codeSent') return state;
      const code = event.code.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH);
      return { ...state, code, error: undefined };
    }
    case 'verifyCodeClicked':
      return canVerifyCode(state) ? { ...state, phase: 'verifying', error: undefined } : state;
    case 'codeVerified':
      return state.phase === 'verifying' ? { ...state, phase: 'verified', isOpen: false } : state;
    case 'verifyCodeFailed':
      if (state.phase !== 'verifying') return state;
      // A typo with tries left: the field keeps the code to correct, the server says how many remain.
      if (event.mayRetry) return { ...state, phase: 'codeSent', error: event.message };
      // The last try, or the code expired: the pending method is gone, so a new code must be sent.
      return {
        ...state,
        phase: 'editing',
        pendingMethodId: undefined,
        code: '',
        error: event.message,
      };
    case 'cancelClicked':
      return closedMethodForm;
  }
}
