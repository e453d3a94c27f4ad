import { XMarkIcon } from '@heroicons/react/24/outline';
import { type Dispatch, useId, useRef } from 'react';
import { Button } from '../../components/ui/Button';
import { cx } from '../../components/ui/cx';
import { TextInput } from '../../components/ui/TextInput';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useFocusTrap } from '../../lib/focus-trap';
import { useConfirmPendingNotificationMethod, useCreatePendingNotificationMethod } from './api';
import { METHOD_TYPE_LABELS } from './method-display';
import {
  canResendCode,
  canSendCode,
  canVerifyCode,
  confirmInput,
  type MethodType,
  methodConfigToSend,
  type NotificationMethodFormEvent,
  type NotificationMethodFormState,
  CODE_MAY_BE_RETRIED_TAG,
  VERIFICATION_CODE_LENGTH,
} from './notification-method-form';

const METHOD_TYPES: MethodType[] = ['email', 'text', 'slack'];

/** The 'New notification method' slide-in panel. */
export function NewNotificationMethodDrawer({
  state,
  dispatch,
}: {
  state: NotificationMethodFormState;
  dispatch: Dispatch<NotificationMethodFormEvent>;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const createPending = useCreatePendingNotificationMethod();
  const confirmPending = useConfirmPendingNotificationMethod();
  const cancel = () => dispatch({ type: 'cancelClicked' });
  useFocusTrap(panel, { isOpen: state.isOpen, onEscape: cancel });

  if (!state.isOpen) return null;

  async function sendCode() {
    const config = methodConfigToSend(state);
    if (!config.ok || !(canSendCode(state) || canResendCode(state))) return;
    dispatch({ type: 'sendCodeClicked' });
    try {
      const { methodId } = await createPending.mutateAsync(config.config);
      dispatch({ type: 'codeSent', methodId });
    } catch (error) {
      dispatch({ type: 'sendCodeFailed', message: errorMessage(toPqlError(error)) });
    }
  }

  async function verifyCode() {
    if (!canVerifyCode(state)) return;
    dispatch({ type: 'verifyCodeClicked' });
    try {
      await confirmPending.mutateAsync(confirmInput(state));
      dispatch({ type: 'codeVerified' });
    } catch (error) {
      const failure = toPqlError(error);
      dispatch({
        type: 'verifyCodeFailed',
        message: errorMessage(failure),
        mayRetry: failure.tag === CODE_MAY_BE_RETRIED_TAG,
      });
    }
  }

  const isCodeStep = state.phase === 'codeSent' || state.phase === 'verifying';
  const isLocked = state.phase === 'sending' || state.phase === 'verifying';
  return (
    <div className="fixed inset-0 z-50 flex justify-end">
      <div className="absolute inset-0 bg-slate-900/50" aria-hidden="true" onClick={cancel} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="relative flex h-full w-full max-w-md flex-col bg-white shadow-xl focus:outline-none"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-6 py-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            New notification method
          </h2>
          <button
            type="button"
            onClick={cancel}
            aria-label="Close"
            className="rounded-lg p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-violet-500"
          >
            <XMarkIcon className="h-6 w-6" aria-hidden="true" />
          </button>
        </div>
        <div className="flex-1 space-y-5 overflow-y-auto px-6 py-5">
          <fieldset disabled={isLocked || isCodeStep}>
            <legend className="mb-2 text-sm font-medium text-slate-700">Method</legend>
            <div className="grid grid-cols-3 gap-2">
              {METHOD_TYPES.map((methodType) => (
                <label
                  key={methodType}
                  className={cx(
                    'flex cursor-pointer items-center justify-center gap-2 rounded-lg px-2 py-2 text-center text-sm ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-500',
                    state.methodType === methodType
                      ? 'bg-violet-50 font-semibold text-violet-800 ring-violet-400'
                      : 'bg-white text-slate-700 ring-slate-200',
                  )}
                >
                  <input
                    type="radio"
                    name={`${titleId}-type`}
                    value={methodType}
                    checked={state.methodType === methodType}
                    onChange={() => dispatch({ type: 'methodTypeUpdated', methodType })}
                    className="sr-only"
                  />
                  {METHOD_TYPE_LABELS[methodType]}
                </label>
              ))}
            </div>
          </fieldset>
          <MethodFields state={state} dispatch={dispatch} isDisabled={isLocked || isCodeStep} />

          {isCodeStep && (
            <div className="rounded-xl bg-violet-50 p-4">
              <p className="text-sm text-slate-700">
                We sent a {VERIFICATION_CODE_LENGTH}-digit code. Enter it here to confirm this
                method.
              </p>
              <TextInput
                label="Verification code"
                type="positiveInteger"
                value={state.code}
                onChange={(code) => dispatch({ type: 'codeUpdated', code })}
                maxLength={VERIFICATION_CODE_LENGTH}
                autoComplete="one-time-code"
                disabled={state.phase === 'verifying'}
                className="mt-3"
              />
              <button
                type="button"
                onClick={() => void sendCode()}
                disabled={!canResendCode(state)}
                className="mt-2 text-sm font-semibold text-violet-700 hover:underline disabled:opacity-50"
              >
                Resend code
              </button>
            </div>
          )}
          {state.error && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
              {state.error}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-3 border-t border-slate-200 px-6 py-4">
          <Button variant="secondary" onClick={cancel}>
            Cancel
          </Button>
          {isCodeStep ? (
            <Button onClick={() => void verifyCode()} disabled={!canVerifyCode(state)}>
              {state.phase === 'verifying' ? 'Verifying...' : 'Verify code'}
            </Button>
          ) : (
            <Button onClick={() => void sendCode()} disabled={!canSendCode(state)}>
              {state.phase === 'sending' ? 'Sending...' : 'Send code'}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

function MethodFields({
  state,
  dispatch,
  isDisabled,
}: {
  state: NotificationMethodFormState;
  dispatch: Dispatch<NotificationMethodFormEvent>;
  isDisabled: boolean;
}) {
  switch (state.methodType) {
    case 'email':
      return (
        <TextInput
          label="Email address"
          type="email"
          value={state.email}
          onChange={(email) => dispatch({ type: 'emailAddressUpdated', email })}
          placeholder="you@example.com"
          autoComplete="email"
          disabled={isDisabled}
        />
      );
    case 'text':
      return (
        <TextInput
          label="Phone number"
          type="tel"
          value={state.phoneNumber}
          onChange={(phoneNumber) => dispatch({ type: 'textPhoneNumberUpdated', phoneNumber })}
          placeholder="(555) 555-0123"
          hint="US numbers: 10 digits. Others: with the country code, e.g. +44 20 7183 8750."
          autoComplete="tel"
          disabled={isDisabled}
        />
      );
    case 'slack':
      return (
        <div className="space-y-4">
          <TextInput
            label="Channel name"
            value={state.slackChannelName}
            onChange={(channelName) => dispatch({ type: 'slackChannelNameUpdated', channelName })}
            placeholder="family-alerts"
            disabled={isDisabled}
          />
          <TextInput
            label="Channel ID"
            value={state.slackChannelId}
            onChange={(channelId) => dispatch({ type: 'slackChannelIdUpdated', channelId })}
            placeholder="C0123456789"
            spellCheck={false}
            disabled={isDisabled}
          />
          <TextInput
            label="Bot token"
            value={state.slackToken}
            onChange={(token) => dispatch({ type: 'slackTokenUpdated', token })}
            placeholder="xoxb-..."
            hint="Starts with xoxb-. Invite the bot to the channel first."
            spellCheck={false}
            autoComplete="off"
            disabled={isDisabled}
          />
        </div>
      );
  }
}
